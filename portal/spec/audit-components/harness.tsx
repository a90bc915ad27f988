// The Audit area's download button on one page, for audit-download.components.browser.spec.ts: one over a
// streamed CSV the spec's loopback server sends a line at a time, one over an answer that refuses. Built
// with Vite into a temporary folder.
import { createRoot } from 'react-dom/client';
import { DownloadButton } from '../../src/areas/audit/download-button.tsx';
import { StatusProvider } from '../../src/ui/status.tsx';
import '../../src/styles/base.css';
import '../../src/styles/shell.css';
import '../../src/styles/ui.css';
import '../../src/areas/audit/audit.css';

function Harness() {
  return (
    <main>
      <h1>Downloads</h1>
      <section aria-label="Streamed">
        <DownloadButton
          label="Export records"
          formats={['csv', 'xlsx']}
          expected={5}
          request={(format) => ({
            path: `/slow?format=${format}`,
            method: 'POST',
            body: { q: 1 },
            fallbackName: 'x.csv',
          })}
        />
      </section>
      <section aria-label="Refused">
        <DownloadButton
          label="Export refused"
          formats={['csv']}
          request={() => ({ path: '/refused', method: 'GET', fallbackName: 'refused.csv' })}
        />
      </section>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StatusProvider>
    <Harness />
  </StatusProvider>,
);
