/** The search every route has: the root route's validateSearch gives it (the target tenant, `?tenant=`). */
export type RootSearch = { tenant?: string };
