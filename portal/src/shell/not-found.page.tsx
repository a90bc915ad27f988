import { Link } from '@tanstack/react-router';
import { Page } from './page.tsx';

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>There is no page of the portal at this address.</p>
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </Page>
  );
}
