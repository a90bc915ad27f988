/** What the shell knows of an area: its name, where it sits in the navigation, and the scopes it needs. */
export type AreaNavItem = { to: string; label: string };

export type AreaMeta = {
  /** the area's path segment (`/portal/<id>/…`) */
  id: string;
  title: string;
  /** the navigation heading the area sits under (Public Setting); absent: its own title */
  group?: string;
  /** one sentence on the home page */
  description: string;
  /** every one of them is needed to see the area (the session's scopes, from the user's roles) */
  scopes: readonly string[];
  /** only for sessions of an operator tenant (OPS_OPERATOR_TENANTS; the session's `operator`): the operations API refuses the others */
  operatorOnly?: true;
  /** the area's entries in the navigation */
  nav: readonly AreaNavItem[];
};
