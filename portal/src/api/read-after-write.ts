import type { QueryClient, QueryKey } from '@tanstack/react-query';

const STEP_MS = 200;
const TRIES = 25;

/**
 * A listing served by a read model may lag the write just answered by a moment (the projector has not
 * read it yet). Refetch the listing's queries until every one shows the write, for about five seconds;
 * past that the list stays as read (a lag that long is the operations area's business, not this form's).
 */
export async function refetchUntilShown<T>(
  client: QueryClient,
  queryKey: QueryKey,
  shows: (data: T) => boolean,
): Promise<void> {
  for (let i = 0; i < TRIES; i++) {
    await client.refetchQueries({ queryKey });
    const cached = client.getQueriesData<T>({ queryKey });
    if (cached.every(([, data]) => data !== undefined && shows(data))) return;
    await new Promise((resolve) => setTimeout(resolve, STEP_MS));
  }
}
