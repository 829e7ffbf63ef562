import { type ComponentType, type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { lazyChunk } from '../lib/chunk';
import { ErrorBoundary } from './error-boundary';
import { ErrorFallback } from './error-fallback';
import { NotForAdmins, RequireAdmin, RequireAuth, SignedOutOnly } from './guards';
import { RootLayout } from './layout/root-layout';
import { ResyncLocation } from './resync-location';

/**
 * Declarative routes (<BrowserRouter> + <Routes>): the data router costs ~16 KB gzip more on the first
 * load and the app uses none of its loaders, actions or fetchers. Each page is its own lazy chunk.
 */

/** A lazily loaded route component: one chunk per route, fetched the first time the route renders. */
const page = lazyChunk;

const HomeRoute = page(
  () => import('../features/catalogue/routes/home'),
  (m) => m.HomeRoute,
);
const EventsPageRoute = page(
  () => import('../features/catalogue/routes/events-page'),
  (m) => m.EventsPageRoute,
);
const EventDetailsRoute = page(
  () => import('../features/catalogue/routes/event-details'),
  (m) => m.EventDetailsRoute,
);
const GetTicketRoute = page(
  () => import('../features/bookings/routes/get-ticket'),
  (m) => m.GetTicketRoute,
);
const PaymentRoute = page(
  () => import('../features/bookings/routes/payment'),
  (m) => m.PaymentRoute,
);
const PaymentSuccessRoute = page(
  () => import('../features/bookings/routes/payment-success'),
  (m) => m.PaymentSuccessRoute,
);
const PaymentFailedRoute = page(
  () => import('../features/bookings/routes/payment-failed'),
  (m) => m.PaymentFailedRoute,
);
const SuccessEmailRoute = page(
  () => import('../features/contact/routes/success-email'),
  (m) => m.SuccessEmailRoute,
);
const ContactRoute = page(
  () => import('../features/contact/routes/contact'),
  (m) => m.ContactRoute,
);
const LoginRoute = page(
  () => import('../features/accounts/routes/login'),
  (m) => m.LoginRoute,
);
const SignupRoute = page(
  () => import('../features/accounts/routes/signup'),
  (m) => m.SignupRoute,
);
const ForgotPassRoute = page(
  () => import('../features/accounts/routes/forgot-pass'),
  (m) => m.ForgotPassRoute,
);
const ResetPasswordRoute = page(
  () => import('../features/accounts/routes/reset-password'),
  (m) => m.ResetPasswordRoute,
);
const ProfileRoute = page(
  () => import('../features/bookings/routes/profile'),
  (m) => m.ProfileRoute,
);
const EditProfileRoute = page(
  () => import('../features/accounts/routes/edit-profile'),
  (m) => m.EditProfileRoute,
);
const AdminEventsRoute = page(
  () => import('../features/admin/routes/admin-events'),
  (m) => m.AdminEventsRoute,
);
const AdminEventFormRoute = page(
  () => import('../features/admin/routes/admin-event-form'),
  (m) => m.AdminEventFormRoute,
);
const AdminMailboxRoute = page(
  () => import('../features/admin/routes/admin-mailbox'),
  (m) => m.AdminMailboxRoute,
);

const NotFoundRoute = page(
  () => import('./not-found'),
  (m) => m.NotFoundRoute,
);

type Guard = (props: { children: ReactNode }) => ReactNode;

function guarded(Guarded: Guard, Component: ComponentType) {
  return (
    <Guarded>
      <Component />
    </Guarded>
  );
}

/** Every route of SPEC §2 with its guard. Unknown paths go to /404. */
export function AppRoutes() {
  const { pathname } = useLocation();
  // ResyncLocation lives here, not beside AppRoutes in boot.tsx only: useId derives its ids from the shape of
  // the tree, and hydration keeps the server's ids in the page, so the server (ssr.tsx) and the browser must
  // render the same children (a sibling added on one side only gave every label and aria-controls other ids).
  return (
    <>
      <ResyncLocation />
      {/* A render error anywhere shows 'Something went wrong.'; moving to another page tries again. */}
      <ErrorBoundary fallback={<ErrorFallback />} resetKey={pathname}>
        {/* Nothing until the first page's chunk is there (it is modulepreloaded): no header-then-page shift.
          Later navigations are transitions, so the current page stays until the next one is ready. */}
        <Suspense fallback={null}>
          <Routes>
            <Route element={<RootLayout />}>
              <Route path="/" element={guarded(NotForAdmins, HomeRoute)} />
              <Route path="/events-page/:category" element={guarded(NotForAdmins, EventsPageRoute)} />
              <Route path="/event-details/:id" element={guarded(NotForAdmins, EventDetailsRoute)} />
              <Route path="/event-details/:id/get-ticket" element={guarded(RequireAuth, GetTicketRoute)} />
              <Route path="/payment" element={guarded(RequireAuth, PaymentRoute)} />
              <Route path="/payment-success" element={guarded(RequireAuth, PaymentSuccessRoute)} />
              <Route path="/payment-failed" element={guarded(RequireAuth, PaymentFailedRoute)} />
              <Route path="/success-email" element={guarded(RequireAuth, SuccessEmailRoute)} />
              <Route path="/contact" element={guarded(NotForAdmins, ContactRoute)} />
              <Route path="/login" element={guarded(SignedOutOnly, LoginRoute)} />
              <Route path="/signup" element={guarded(SignedOutOnly, SignupRoute)} />
              <Route path="/forgot-pass" element={guarded(SignedOutOnly, ForgotPassRoute)} />
              <Route path="/reset-password" element={<ResetPasswordRoute />} />
              <Route path="/profile" element={guarded(RequireAuth, ProfileRoute)} />
              <Route
                path="/edit-profile"
                element={
                  <RequireAuth blankWhilePending>
                    <EditProfileRoute />
                  </RequireAuth>
                }
              />
              <Route path="/admin" element={guarded(RequireAdmin, AdminEventsRoute)} />
              <Route path="/admin/event/:id" element={guarded(RequireAdmin, AdminEventFormRoute)} />
              <Route path="/admin/mailbox" element={guarded(RequireAdmin, AdminMailboxRoute)} />
              <Route path="/404" element={<NotFoundRoute />} />
              <Route path="*" element={<Navigate to="/404" replace />} />
            </Route>
          </Routes>
        </Suspense>
      </ErrorBoundary>
    </>
  );
}
