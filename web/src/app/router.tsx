import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { ErrorFallback } from './error-fallback';
import { NotForAdmins, RequireAdmin, RequireAuth, SignedOutOnly } from './guards';
import { RootLayout } from './layout/root-layout';
import { NotFoundRoute } from './not-found';

type Guard = (props: { children: ReactNode }) => ReactNode;

/** Lazy-loads a route module (one chunk per route) and wraps its component in a guard. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType, guard?: Guard) {
  return async () => {
    const Component = pick(await load());
    if (!guard) return { Component };
    const Guarded = guard;
    // biome-ignore lint/correctness/noComponentHookFactories: built once per lazy route load, not per render
    return { Component: () => <Guarded>{<Component />}</Guarded> };
  };
}

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <ErrorFallback />,
    children: [
      {
        path: '/',
        lazy: page(
          () => import('../features/catalogue/routes/home'),
          (m) => m.HomeRoute,
          NotForAdmins,
        ),
      },
      {
        path: '/events-page/:category',
        lazy: page(
          () => import('../features/catalogue/routes/events-page'),
          (m) => m.EventsPageRoute,
          NotForAdmins,
        ),
      },
      {
        path: '/event-details/:id',
        lazy: page(
          () => import('../features/catalogue/routes/event-details'),
          (m) => m.EventDetailsRoute,
          NotForAdmins,
        ),
      },
      {
        path: '/event-details/:id/get-ticket',
        lazy: page(
          () => import('../features/bookings/routes/get-ticket'),
          (m) => m.GetTicketRoute,
          RequireAuth,
        ),
      },
      {
        path: '/payment',
        lazy: page(
          () => import('../features/bookings/routes/payment'),
          (m) => m.PaymentRoute,
          RequireAuth,
        ),
      },
      {
        path: '/payment-success',
        lazy: page(
          () => import('../features/bookings/routes/payment-success'),
          (m) => m.PaymentSuccessRoute,
          RequireAuth,
        ),
      },
      {
        path: '/payment-failed',
        lazy: page(
          () => import('../features/bookings/routes/payment-failed'),
          (m) => m.PaymentFailedRoute,
          RequireAuth,
        ),
      },
      {
        path: '/success-email',
        lazy: page(
          () => import('../features/contact/routes/success-email'),
          (m) => m.SuccessEmailRoute,
          RequireAuth,
        ),
      },
      {
        path: '/contact',
        lazy: page(
          () => import('../features/contact/routes/contact'),
          (m) => m.ContactRoute,
          NotForAdmins,
        ),
      },
      {
        path: '/login',
        lazy: page(
          () => import('../features/accounts/routes/login'),
          (m) => m.LoginRoute,
          SignedOutOnly,
        ),
      },
      {
        path: '/signup',
        lazy: page(
          () => import('../features/accounts/routes/signup'),
          (m) => m.SignupRoute,
          SignedOutOnly,
        ),
      },
      {
        path: '/forgot-pass',
        lazy: page(
          () => import('../features/accounts/routes/forgot-pass'),
          (m) => m.ForgotPassRoute,
          SignedOutOnly,
        ),
      },
      {
        path: '/reset-password',
        lazy: page(
          () => import('../features/accounts/routes/reset-password'),
          (m) => m.ResetPasswordRoute,
        ),
      },
      {
        path: '/profile',
        lazy: page(
          () => import('../features/bookings/routes/profile'),
          (m) => m.ProfileRoute,
          RequireAuth,
        ),
      },
      {
        path: '/edit-profile',
        lazy: page(
          () => import('../features/accounts/routes/edit-profile'),
          (m) => m.EditProfileRoute,
          RequireAuth,
        ),
      },
      {
        path: '/admin',
        lazy: page(
          () => import('../features/admin/routes/admin-events'),
          (m) => m.AdminEventsRoute,
          RequireAdmin,
        ),
      },
      {
        path: '/admin/event/:id',
        lazy: page(
          () => import('../features/admin/routes/admin-event-form'),
          (m) => m.AdminEventFormRoute,
          RequireAdmin,
        ),
      },
      {
        path: '/admin/mailbox',
        lazy: page(
          () => import('../features/admin/routes/admin-mailbox'),
          (m) => m.AdminMailboxRoute,
          RequireAdmin,
        ),
      },
      { path: '/404', element: <NotFoundRoute /> },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
]);
