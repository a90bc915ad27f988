import type { ReactNode } from 'react';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { DefinitionFacts } from './definition-facts.tsx';
import { pretty, type Snapshot } from './hub-defs-api.ts';

/**
 * What a snapshot captured, section by section: the definition version, its context, its rules, and the
 * templates, delivery services and channels they resolved to for the send (never payloads or secrets).
 */
export function SnapshotContent({ content: c }: { content: Snapshot['Content'] }) {
  const ctx = c.ContextDefinition;
  return (
    <>
      <Part title={`Definition ${c.Definition.DefinitionId}`}>
        <DefinitionFacts d={c.Definition} />
      </Part>
      <Part title={ctx === undefined ? 'Context definition: none' : `Context definition ${ctx.ContextDefinitionId}`}>
        {ctx !== undefined && (
          <Table
            caption={`Context ${ctx.ContextDefinitionId}`}
            head={['Kind', 'Name', 'Path', 'Masking']}
            rows={[
              ...Object.entries(ctx.Contexts).map(([n, p]) => ['alias', n, p, '']),
              ...Object.entries(ctx.Variables).map(([n, p]) => ['variable', n, p, '']),
              ...ctx.SensitiveFields.map((f) => [
                'sensitive field',
                '',
                f.Path,
                f.Pattern === undefined ? f.Method : `${f.Method} ${f.Pattern}`,
              ]),
            ]}
          />
        )}
      </Part>
      <Part title={`Delivery rules (${c.Rules.length})`}>
        <Table
          caption="Captured rules"
          head={['Rule', 'Role', 'Channel', 'Order', 'Recipient', 'Condition', 'Template', 'Service', 'Enabled']}
          rows={c.Rules.map((r) => [
            r.RuleId,
            r.Role,
            r.Channel,
            String(r.OrderNo),
            `${r.RecipientSource}${r.AddressVariable === undefined ? '' : ` · ${r.AddressVariable}`}`,
            r.Condition ?? 'always',
            r.TemplateCode,
            r.ServiceId,
            r.Enabled ? 'yes' : 'no',
          ])}
        />
      </Part>
      <Part title={`Templates (${c.Templates.length})`}>
        <Table
          caption="Captured templates"
          head={['Template', 'Type', 'Status', 'Subject', 'Body']}
          rows={c.Templates.map((t) => [t.TemplateId, t.ContentType, t.Status, t.Subject ?? '', t.Body])}
        />
      </Part>
      <Part title={`Delivery services (${c.Services.length})`}>
        <Table
          caption="Captured delivery services"
          head={['Service', 'Driver', 'Channel', 'Receipt', 'Settings']}
          rows={c.Services.map((s) => [
            s.ServiceId,
            s.DriverType,
            s.Channel ?? 'any',
            s.ReceiptMode === 'FINAL_RESULT' ? `FINAL_RESULT (${s.ReceiptTimeoutSeconds ?? 86400} s)` : s.ReceiptMode,
            pretty(s.Settings),
          ])}
        />
      </Part>
      <Part title={`Channels (${c.Channels.length})`}>
        <Table
          caption="Captured channels"
          head={['Channel', 'Enabled']}
          rows={c.Channels.map((ch) => [ch.Code, ch.Enabled ? 'yes' : 'no'])}
        />
      </Part>
    </>
  );
}

function Part({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="hd-section">
      <h2 className="hd-part-title">{title}</h2>
      {children}
    </section>
  );
}

function Table({ caption, head, rows }: { caption: string; head: string[]; rows: string[][] }) {
  return (
    <ScrollRegion label={caption}>
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={head.length} className="table-empty">
                None captured.
              </td>
            </tr>
          )}
          {rows.map((r) => (
            <tr key={r.join('\u0000')}>
              {r.map((cell, i) =>
                i === 0 ? (
                  <th key={head[i]} scope="row">
                    <code className="hd-nowrap">{cell}</code>
                  </th>
                ) : (
                  <td key={head[i]}>{cell.includes('\n') ? <pre className="hd-cell-pre">{cell}</pre> : cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
