import { createIcon } from "@chakra-ui/react";

/** The line style every icon of the app is drawn with. */
export const iconStroke = {
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
} as const;

export const MenuIcon = createIcon({
  displayName: "MenuIcon",
  path: <path {...iconStroke} d="M4 6h16M4 12h16M4 18h16" />,
});

export const CloseIcon = createIcon({
  displayName: "CloseIcon",
  path: <path {...iconStroke} d="M18 6 6 18M6 6l12 12" />,
});

export const UploadIcon = createIcon({
  displayName: "UploadIcon",
  path: <path {...iconStroke} d="M12 16V4m0 0-5 5m5-5 5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />,
});

export const CameraIcon = createIcon({
  displayName: "CameraIcon",
  path: [
    <path
      key="body"
      {...iconStroke}
      d="M4 8h3l2-3h6l2 3h3a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1Z"
    />,
    <circle key="lens" {...iconStroke} cx="12" cy="13.5" r="3.5" />,
  ],
});

export const SearchIcon = createIcon({
  displayName: "SearchIcon",
  path: [
    <circle key="glass" {...iconStroke} cx="11" cy="11" r="7" />,
    <path key="handle" {...iconStroke} d="m20 20-4-4" />,
  ],
});

export const CalendarIcon = createIcon({
  displayName: "CalendarIcon",
  path: (
    <path
      {...iconStroke}
      d="M7 3v3m10-3v3M4 9h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Z"
    />
  ),
});

export const PencilIcon = createIcon({
  displayName: "PencilIcon",
  path: <path {...iconStroke} d="M4 20h4L19 9l-4-4L4 16v4Zm9-13 4 4" />,
});

export const RefreshIcon = createIcon({
  displayName: "RefreshIcon",
  path: <path {...iconStroke} d="M20 11a8 8 0 0 0-14.6-4.5M4 4v3h3m-3 6a8 8 0 0 0 14.6 4.5M20 20v-3h-3" />,
});

export const CheckIcon = createIcon({
  displayName: "CheckIcon",
  path: <path {...iconStroke} d="m5 12 5 5 9-10" />,
});

export const TagIcon = createIcon({
  displayName: "TagIcon",
  path: [
    <path key="tag" {...iconStroke} d="M3 12V4a1 1 0 0 1 1-1h8l9 9-9 9-9-9Z" />,
    <circle key="hole" {...iconStroke} cx="8" cy="8" r="1.5" />,
  ],
});

export const ArrowLeftIcon = createIcon({
  displayName: "ArrowLeftIcon",
  path: <path {...iconStroke} d="M19 12H5m0 0 6-6m-6 6 6 6" />,
});

export const TrashIcon = createIcon({
  displayName: "TrashIcon",
  path: <path {...iconStroke} d="M4 7h16M10 11v6M14 11v6M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />,
});

export const UserIcon = createIcon({
  displayName: "UserIcon",
  path: [
    <circle key="head" {...iconStroke} cx="12" cy="8" r="4" />,
    <path key="body" {...iconStroke} d="M4 21a8 8 0 0 1 16 0" />,
  ],
});

export const MailIcon = createIcon({
  displayName: "MailIcon",
  path: [
    <rect key="envelope" {...iconStroke} x="3" y="5" width="18" height="14" rx="2" />,
    <path key="flap" {...iconStroke} d="m3 7 9 6 9-6" />,
  ],
});
