import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDefinitionCatalog } from '../../../commands/workflow/definition.catalog.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { collectBpmnFiles, runWorkflowImport } from '../../../infra/workflow/workflow-import.ts';
import { sequenceXml } from '../../http/workflow/workflow-harness.ts';
import { storedZip } from './stored-zip.ts';

// `platform workflow import <folder or .zip>`: the BPMN files of bizdata/wf_<engine>/wf_zip (and the zips
// there) are deployed for a tenant; unchanged files are skipped; a bad file is reported and fails the run.

test('a folder and a zip of the layout: deployed, then skipped when unchanged; a new version when changed', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'wf-import-'));
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  try {
    const folder = path.join(dir, 'data');
    const wfZip = path.join(folder, 'bizdata', 'wf_camunda', 'wf_zip');
    mkdirSync(wfZip, { recursive: true });
    writeFileSync(path.join(wfZip, 'claim.bpmn'), sequenceXml('claim', ['review']));
    writeFileSync(
      path.join(wfZip, 'bundle.zip'),
      storedZip([
        { name: 'policy.bpmn20.xml', data: sequenceXml('policy', ['check']) },
        { name: 'readme.txt', data: 'not bpmn' },
      ]),
    );
    writeFileSync(path.join(folder, 'bizdata', 'elsewhere.bpmn'), sequenceXml('ignored', ['x']));
    assert.equal(
      (await collectBpmnFiles(folder)).map((f) => f.path),
      ['bizdata/wf_camunda/wf_zip/bundle.zip!policy.bpmn20.xml', 'bizdata/wf_camunda/wf_zip/claim.bpmn'],
    );

    const lines: string[] = [];
    const run = (source: string) =>
      runWorkflowImport({ eventStore, clock: systemClock, tenant: 'acme', source, write: (l) => lines.push(l) });
    assert.is(await run(folder), 0);
    assert.match(lines.at(-1)!, /tenant acme: 2 deployed, 0 unchanged \(skipped\), 0 failed/);
    const catalog = createDefinitionCatalog({ eventStore });
    assert.is((await catalog.versions('acme', 'claim')).versions.length, 1);

    lines.length = 0;
    assert.is(await run(folder), 0);
    assert.match(lines.at(-1)!, /0 deployed, 2 unchanged/);

    // the same layout in a zip, with claim changed
    const zip = path.join(dir, 'bizdata.zip');
    writeFileSync(
      zip,
      storedZip([
        { name: 'bizdata/wf_camunda/wf_zip/claim.bpmn', data: sequenceXml('claim', ['review', 'approve']) },
        { name: 'bizdata/wf_camunda/wf_zip/policy.bpmn', data: sequenceXml('policy', ['check']) },
      ]),
    );
    lines.length = 0;
    assert.is(await run(zip), 0);
    assert.match(lines.at(-1)!, /1 deployed, 1 unchanged/);
    assert.equal(
      (await catalog.versions('acme', 'claim')).versions.map((v) => v.version),
      [1, 2],
    );

    writeFileSync(path.join(wfZip, 'broken.bpmn'), '<definitions');
    lines.length = 0;
    assert.is(await run(folder), 1);
    assert.ok(
      lines.some((l) => l.startsWith('FAILED') && l.includes('broken.bpmn') && l.includes('invalid BPMN XML')),
      lines.join('\n'),
    );

    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    lines.length = 0;
    assert.is(await run(empty), 1);
    assert.match(lines[0]!, /no BPMN files under bizdata\/wf_<engine>\/wf_zip/);
  } finally {
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
