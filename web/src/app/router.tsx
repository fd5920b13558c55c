import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { RequireRole, RequireSignIn } from '../lib/authorization';
import { areas } from './areas';
import { HomeRedirect } from './routes/home-redirect';
import { NotFoundRoute } from './routes/not-found';
import { RouteError } from './routes/route-error';
import { SignInRoute } from './routes/sign-in';
import { SignedInLayout } from './routes/signed-in-layout';

/** The console's pages under /console, each area behind its roles (see `areas.ts`). */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { path: 'sign-in', element: <SignInRoute /> },
      // Pages for people not signed in: mailed links (token in the fragment) and "forgot password".
      {
        path: 'accept-invitation',
        lazy: async () => ({
          Component: (await import('./routes/accept-invitation')).AcceptInvitationRoute,
        }),
      },
      {
        path: 'forgot-password',
        lazy: async () => ({
          Component: (await import('./routes/forgot-password')).ForgotPasswordRoute,
        }),
      },
      {
        path: 'reset-password',
        lazy: async () => ({
          Component: (await import('./routes/reset-password')).ResetPasswordRoute,
        }),
      },
      {
        element: (
          <RequireSignIn>
            <SignedInLayout />
          </RequireSignIn>
        ),
        children: [
          { index: true, element: <HomeRedirect /> },
          ...areas.map((area): RouteObject => ({
            path: area.path,
            element: (
              <RequireRole roles={area.roles}>
                <Outlet />
              </RequireRole>
            ),
            children: [
              { index: true, lazy: async () => ({ Component: await area.page() }) },
              ...(area.subpages ?? []).map((subpage): RouteObject =>
                subpage.roles
                  ? {
                      path: subpage.path,
                      element: (
                        <RequireRole roles={subpage.roles}>
                          <Outlet />
                        </RequireRole>
                      ),
                      children: [
                        { index: true, lazy: async () => ({ Component: await subpage.page() }) },
                      ],
                    }
                  : { path: subpage.path, lazy: async () => ({ Component: await subpage.page() }) },
              ),
            ],
          })),
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes, { basename: '/console' });
}
