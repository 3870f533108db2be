import { Badge, type BadgeProps, createIcon } from "@chakra-ui/react";
import type { PreflightStatus } from "@dorsal/shared";
import { iconStroke } from "../../../components/ui/icons";
import { statusLabels, statusPalettes } from "../api/format";

const PassedIcon = createIcon({
  displayName: "PassedIcon",
  path: [
    <circle key="ring" {...iconStroke} cx="12" cy="12" r="9" />,
    <path key="tick" {...iconStroke} d="m8 12 3 3 5-6" />,
  ],
});

const WarningIcon = createIcon({
  displayName: "WarningIcon",
  path: [
    <path key="triangle" {...iconStroke} d="M12 3 2 20h20L12 3Z" />,
    <path key="mark" {...iconStroke} d="M12 10v4m0 3h.01" />,
  ],
});

const FailedIcon = createIcon({
  displayName: "FailedIcon",
  path: [
    <circle key="ring" {...iconStroke} cx="12" cy="12" r="9" />,
    <path key="cross" {...iconStroke} d="m9 9 6 6m0-6-6 6" />,
  ],
});

const icons = { GREEN: PassedIcon, YELLOW: WarningIcon, RED: FailedIcon } as const;
const iconColors = { GREEN: "green.600", YELLOW: "yellow.600", RED: "red.600" } as const;

/** The status's icon in its colour; decorative, as a label always goes with it. */
export function StatusIcon({ status, boxSize = "6" }: { status: PreflightStatus; boxSize?: string }) {
  const Shape = icons[status];
  return <Shape color={iconColors[status]} boxSize={boxSize} flexShrink={0} aria-hidden />;
}

/** The status in words, coloured ('Correcto', 'Advertencia', 'Falla crítica'). */
export function StatusBadge({ status, ...badge }: BadgeProps & { status: PreflightStatus }) {
  return (
    <Badge colorPalette={statusPalettes[status]} variant="surface" {...badge}>
      {statusLabels[status]}
    </Badge>
  );
}
