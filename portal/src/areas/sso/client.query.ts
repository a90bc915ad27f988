import { api, call } from '../../api/client.ts';

/** one application (GET /cas/admin/v1/clients/{id}; never its secret), shared by its pages */
export const clientQuery = (id: string) => ({
  queryKey: ['identity', 'client', id],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    call(api.identity.GET('/cas/admin/v1/clients/{id}', { params: { path: { id } }, signal })),
});
