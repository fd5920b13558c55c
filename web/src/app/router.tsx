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
              ...(area.subpages ?? []).map((subpage): RouteObject => ({
                path: subpage.path,
                lazy: async () => ({ Component: await subpage.page() }),
              })),
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
