import { lazy, Suspense } from "react";
import { Navigate, Route, Routes, useSearchParams } from "react-router";
import { ComingSoon } from "../components/ui/coming-soon";
import { LandingPage } from "../features/landing/components/landing-page";
import { FreePhotosPage } from "../features/search/components/free-photos-page";
import { SearchPage } from "../features/search/components/search-page";
import { type SessionUser, session, useSession } from "../lib/session";
import { AdminLayout } from "./layouts/admin-layout";
import { PhotographerLayout } from "./layouts/photographer-layout";
import { PublicLayout, PublicPage } from "./layouts/public-layout";
import { NotFoundPage } from "./not-found-page";

/** Staff sign-in and signed-in screens load on demand, so visitors searching their photos download less. */
const LoginPage = lazy(() =>
  import("../features/auth/components/login-page").then((module) => ({ default: module.LoginPage })),
);
const DashboardPage = lazy(() =>
  import("../features/dashboard/components/dashboard-page").then((module) => ({ default: module.DashboardPage })),
);
const AnalyticsPage = lazy(() =>
  import("../features/analytics/components/analytics-page").then((module) => ({ default: module.AnalyticsPage })),
);
const EventsPage = lazy(() =>
  import("../features/events/components/events-page").then((module) => ({ default: module.EventsPage })),
);
const BibReviewPage = lazy(() =>
  import("../features/bibs/components/bib-review-page").then((module) => ({ default: module.BibReviewPage })),
);
const StartListPage = lazy(() =>
  import("../features/bibs/components/start-list-page").then((module) => ({ default: module.StartListPage })),
);
const FailedPhotosPage = lazy(() =>
  import("../features/processing/components/failed-photos-page").then((module) => ({
    default: module.FailedPhotosPage,
  })),
);
const UploadPage = lazy(() =>
  import("../features/upload/components/upload-page").then((module) => ({ default: module.UploadPage })),
);
const UserManagementPage = lazy(() =>
  import("../features/users/components/user-management-page").then((module) => ({
    default: module.UserManagementPage,
  })),
);
const SettingsPage = lazy(() =>
  import("../features/settings/components/settings-page").then((module) => ({ default: module.SettingsPage })),
);
const CloudStoragePage = lazy(() =>
  import("../features/settings/components/cloud-storage-page").then((module) => ({ default: module.CloudStoragePage })),
);
const MobileTestPage = lazy(() =>
  import("../features/mobile-test/components/mobile-test-page").then((module) => ({ default: module.MobileTestPage })),
);
const PricingPage = lazy(() =>
  import("../features/pricing/components/pricing-page").then((module) => ({ default: module.PricingPage })),
);
const ApplicationsPage = lazy(() =>
  import("../features/applications/components/applications-page").then((module) => ({
    default: module.ApplicationsPage,
  })),
);
const DownloadCodesPage = lazy(() =>
  import("../features/download-codes/components/download-codes-page").then((module) => ({
    default: module.DownloadCodesPage,
  })),
);
const AthleteLoginPage = lazy(() =>
  import("../features/auth/components/athlete-login-page").then((module) => ({
    default: module.AthleteLoginPage,
  })),
);
const PurchasePage = lazy(() =>
  import("../features/purchase/components/purchase-page").then((module) => ({ default: module.PurchasePage })),
);
const DownloadPage = lazy(() =>
  import("../features/download/components/download-page").then((module) => ({ default: module.DownloadPage })),
);
const PreflightPage = lazy(() =>
  import("../features/preflight/components/preflight-page").then((module) => ({ default: module.PreflightPage })),
);
const PerformancePage = lazy(() =>
  import("../features/performance/components/performance-page").then((module) => ({
    default: module.PerformancePage,
  })),
);
const SalesPage = lazy(() =>
  import("../features/sales/components/sales-page").then((module) => ({ default: module.SalesPage })),
);
const OutboxPage = lazy(() =>
  import("../features/outbox/components/outbox-page").then((module) => ({ default: module.OutboxPage })),
);
const NotificationLinkPage = lazy(() =>
  import("../features/notifications/components/notification-link-page").then((module) => ({
    default: module.NotificationLinkPage,
  })),
);
const ApplicationFormPage = lazy(() =>
  import("../features/applications/components/application-form-page").then((module) => ({
    default: module.ApplicationFormPage,
  })),
);

const AccountPage = lazy(() =>
  import("../features/account/components/account-page").then((module) => ({ default: module.AccountPage })),
);
const VerifyEmailPage = lazy(() =>
  import("../features/account/components/verify-email-page").then((module) => ({ default: module.VerifyEmailPage })),
);
/** 'Tu cuenta' loads on demand: an athlete's /search never pays for it. */
const accountPage = (
  <Suspense fallback={null}>
    <AccountPage />
  </Suspense>
);

/**
 * Admin screens of spec §2.1 that are not built yet, with the titles the spec gives them. No menu
 * or button leads to them (issue 17); their addresses say honestly that they are coming.
 */
const adminComingSoon = [{ path: "purchase", title: "Compra de fotos" }] as const;

/** Spec §2.1: without a token the link cannot work, so the visitor lands on search with a notice. */
function DownloadRoute() {
  const [params] = useSearchParams();
  if (!params.get("token")) return <Navigate to="/search?error=no_download_token" replace />;
  return (
    <Suspense fallback={null}>
      <DownloadPage />
    </Suspense>
  );
}

/**
 * The signed-in screens' paths (spec §2.1 'Any other path needs a logged-in user; without one the
 * browser is sent to /'). Any other unknown path is a mistake, answered with the 404 page.
 */
const signedInPaths = [
  "dashboard",
  "events/*",
  "upload",
  "bulk-upload",
  "processing",
  "event-pricing",
  "photographer-applications",
  "settings",
  "user-management",
  "admin-download-codes",
  "admin/sales",
  "admin/outbox",
  "analytics",
  "preflight",
  "preflight-dashboard",
  "performance-dashboard",
  ...adminComingSoon.map(({ path }) => path),
];

const publicNotFoundLinks = [
  { to: "/", label: "Ir al inicio" },
  { to: "/search", label: "Buscar mis fotos" },
];

function signedOutRoutes() {
  // A session the server refused goes back to its own login (lib/session.ts `expire`).
  const expiredLogin = session.expiredLoginPath();
  if (expiredLogin) return <Route path="*" element={<Navigate to={expiredLogin} replace />} />;
  return (
    <>
      {signedInPaths.map((path) => (
        <Route key={path} path={path} element={<Navigate to="/" replace />} />
      ))}
      <Route element={<PublicLayout />}>
        <Route element={<PublicPage />}>
          <Route path="*" element={<NotFoundPage links={publicNotFoundLinks} />} />
        </Route>
      </Route>
    </>
  );
}

function roleRoutes(user: SessionUser | null) {
  switch (user?.role) {
    case undefined:
      return signedOutRoutes();
    case "admin":
      return (
        <Route element={<AdminLayout />}>
          <Route index element={<DashboardPage />} />
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="events" element={<EventsPage />} />
          <Route path="events/:eventId/dorsales" element={<BibReviewPage />} />
          <Route path="events/:eventId/inscritos" element={<StartListPage />} />
          <Route path="upload" element={<UploadPage />} />
          <Route path="bulk-upload" element={<UploadPage />} />
          <Route path="processing" element={<FailedPhotosPage />} />
          <Route path="search" element={<SearchPage />} />
          <Route path="event-pricing" element={<PricingPage />} />
          <Route path="photographer-applications" element={<ApplicationsPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="cloud-storage-config" element={<CloudStoragePage />} />
          <Route path="user-management" element={<UserManagementPage />} />
          <Route path="admin-download-codes" element={<DownloadCodesPage />} />
          <Route path="analytics" element={<AnalyticsPage />} />
          <Route path="admin/sales" element={<SalesPage />} />
          <Route path="admin/outbox" element={<OutboxPage />} />
          {/* Spec §2.1: the same screen at both paths. */}
          <Route path="preflight" element={<PreflightPage />} />
          <Route path="preflight-dashboard" element={<PreflightPage />} />
          <Route path="performance-dashboard" element={<PerformancePage />} />
          {adminComingSoon.map(({ path, title }) => (
            <Route key={path} path={path} element={<ComingSoon title={title} backTo="/dashboard" />} />
          ))}
          {/* Spec §2.1 sends unknown paths to the dashboard; issue 17 wants a mistake said. */}
          <Route path="*" element={<NotFoundPage links={[{ to: "/dashboard", label: "Ir al panel" }]} />} />
        </Route>
      );
    case "photographer":
      return (
        <Route
          path="*"
          element={
            <PhotographerLayout>
              <UploadPage />
            </PhotographerLayout>
          }
        />
      );
    case "athlete":
      return (
        <Route element={<PublicLayout />}>
          <Route element={<PublicPage />}>
            <Route path="account" element={accountPage} />
            <Route path="*" element={<SearchPage />} />
          </Route>
        </Route>
      );
    case "user":
      return (
        <Route element={<PublicLayout />}>
          <Route element={<PublicPage />}>
            <Route path="*" element={accountPage} />
          </Route>
        </Route>
      );
  }
}

/**
 * Spec §2.1. The public routes answer for everyone, signed in or not, except `/` and `/search`
 * for admins, who see them inside the admin header. Every other path depends on the role.
 */
export function AppRoutes() {
  const user = useSession();
  const isAdmin = user?.role === "admin";
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        {!user && <Route index element={<LandingPage />} />}
        <Route element={<PublicPage />}>
          {!isAdmin && <Route path="search" element={<SearchPage />} />}
          <Route path="free-photos" element={<FreePhotosPage />} />
          <Route
            path="soy-fotografo"
            element={
              <Suspense fallback={null}>
                <ApplicationFormPage />
              </Suspense>
            }
          />
          <Route
            path="athlete-login"
            element={
              <Suspense fallback={null}>
                <AthleteLoginPage />
              </Suspense>
            }
          />
          <Route
            path="mobile-test"
            element={
              <Suspense fallback={null}>
                <MobileTestPage />
              </Suspense>
            }
          />
          <Route
            path="photo-purchase"
            element={
              <Suspense fallback={null}>
                <PurchasePage />
              </Suspense>
            }
          />
          <Route path="download" element={<DownloadRoute />} />
          {(["confirmar", "baja"] as const).map((action) => (
            <Route
              key={action}
              path={`avisos/${action}`}
              element={
                <Suspense fallback={null}>
                  <NotificationLinkPage action={action} />
                </Suspense>
              }
            />
          ))}
          <Route
            path="verify-email"
            element={
              <Suspense fallback={null}>
                <VerifyEmailPage />
              </Suspense>
            }
          />
          <Route
            path="admin-login"
            element={
              <Suspense fallback={null}>
                <LoginPage requiredRole="admin" />
              </Suspense>
            }
          />
          <Route
            path="photographer-login"
            element={
              <Suspense fallback={null}>
                <LoginPage requiredRole="photographer" />
              </Suspense>
            }
          />
        </Route>
      </Route>
      {roleRoutes(user)}
    </Routes>
  );
}
