import type { ApiForm } from '../../ui/form.tsx';
import { TextField } from '../../ui/form.tsx';
import { otherScopes, parseScopeList } from './scope-groups.ts';
import { ScopePicker } from './scope-picker.tsx';

/**
 * A user's roles: the platform's service scopes as checkboxes, and any other roles typed (the API takes
 * any scope-like word as a role). The form keeps the boxes in `roles` and the typed ones in `other_roles`.
 */
export type RolesValues = { roles: string[]; other_roles: string };

export const rolesValuesOf = (roles: readonly string[]): RolesValues => ({
  roles: roles.filter((r) => !otherScopes([r]).length),
  other_roles: otherScopes(roles).join(' '),
});

export const rolesOf = (v: RolesValues): string[] => [...new Set([...v.roles, ...parseScopeList(v.other_roles)])];

export function RolesField<V extends RolesValues>({ form }: { form: ApiForm<V> }) {
  const f = form as unknown as ApiForm<RolesValues>;
  return (
    <>
      <ScopePicker
        legend="Roles"
        hint="A user is given only the scopes their roles name; the portal shows them the areas those open."
        value={f.values.roles}
        onChange={(next) => f.set('roles', next)}
        error={f.errors.roles}
        inputId={f.ids('roles').input}
      />
      <TextField
        form={f}
        name="other_roles"
        label="Other roles"
        hint="Roles of your own applications, separated by spaces."
      />
    </>
  );
}
