// The Workflow area's task claims, instance lists and timers in Debian's headless Chromium: the demo admin
// claims a task from the task list (the row shows the assignee, the API agrees) and unclaims it; a claim
// taken meanwhile by someone else is refused in place; the instances are listed by state alone; a timer
// of 30 days is listed on the Timers page with its due time and leads to its instance. Every new or
// changed page is scanned by axe-core and photographed at 1280 and 390 px; nothing may be refused by the CSP.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../../spec/core/eventually.ts';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log(
    'SKIPPED: the Workflow task claims, instance lists and timers in Chromium (install the chromium package)',
  );
} else {
  await run();
}

const POOL = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" targetNamespace="spec">
  <process id="review" name="Review" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="check"/>
    <userTask id="check" name="Check claim" camunda:candidateUsers="admin,gonzo"/>
    <sequenceFlow id="f2" sourceRef="check" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;

const TIMED = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="spec">
  <process id="cooling" name="Cooling-off" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="coolingOff"/>
    <intermediateCatchEvent id="coolingOff"><timerEventDefinition><timeDuration>P30D</timeDuration></timerEventDefinition></intermediateCatchEvent>
    <sequenceFlow id="f2" sourceRef="coolingOff" targetRef="confirm"/>
    <userTask id="confirm" name="Confirm"/>
    <sequenceFlow id="f3" sourceRef="confirm" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;

async function run() {
  const { ensurePortalBuilt, launchChromium, watchedPage } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );

  ensurePortalBuilt();
  const p = await startPortalPlatform();
  const browser: Browser = await launchChromium();
  const { jar } = await portalSignIn(p.base);
  const json = async (path: string, init: RequestInit = {}) => {
    const res = await portalApi(p.base, jar, path, {
      ...init,
      ...(init.body !== undefined && { headers: { 'content-type': 'application/json' } }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the answers are read field by field, as the API specs read them
    const body = (await res.json()) as any;
    assert.ok(res.ok, `${path}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const start = (key: string, businessKey: string) =>
    json('/workflow/v1/process-instances', {
      method: 'POST',
      body: JSON.stringify({
        processDefinitionKey: key,
        businessKey,
        queryVariables: { TaskType: key, WorkflowBusinessKey: businessKey },
      }),
    });

  const { context, page, problems, refusals, look } = await watchedPage(browser, {
    viewport: { width: 1280, height: 800 },
  });

  const test = suite('the Workflow task claims, instance lists and timers in Chromium');
  let claimTaskId = '';

  test.before(async () => {
    const form = new FormData();
    form.append('files', new Blob([POOL], { type: 'application/xml' }), 'review.bpmn');
    form.append('files', new Blob([TIMED], { type: 'application/xml' }), 'cooling.bpmn');
    const deployed = await portalApi(p.base, jar, '/workflow/v1/deployment', { method: 'POST', body: form });
    assert.is(deployed.status, 201, await deployed.clone().text());
    claimTaskId = (await start('review', 'CLAIM-1')).content[0].id;
  });

  test('a task is claimed from the task list, shows its assignee, and is unclaimed', async () => {
    await page.goto(`${p.base}/portal/workflow/tasks`);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
    // the acting user starts as the signed-in user
    assert.is(await page.getByLabel('Acting user (claims for)').inputValue(), ADMIN.username);
    await page.getByLabel('Text (any field)').fill('CLAIM-1');
    const claim = page.getByRole('button', { name: 'Claim Check claim' });
    // the search index has latency: search again until the task is there
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Search' }).click();
        await page.waitForLoadState('networkidle');
        return (await claim.count()) === 1;
      },
      { what: 'the task in the search', intervalMs: 200 },
    );
    await claim.click();
    await page.getByText(`Claimed Check claim for ${ADMIN.username}`).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'CLAIM-1' });
    await row.getByRole('cell', { name: ADMIN.username, exact: true }).waitFor();
    await row.getByRole('cell', { name: 'ASSIGNED', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Unclaim Check claim' }).waitFor();
    const byKey = await json(
      '/workflow/v1/tasks/byBusinessKey?processDefinitionKey=review&workflowBusinessKey=CLAIM-1',
    );
    assert.equal([byKey.content[0].assignee, byKey.content[0].status], [ADMIN.username, 'ASSIGNED']);
    assert.match(byKey.content[0].claimedDate, /^\d{4}-\d\d-\d\dT/);
    await row.getByRole('cell', { name: byKey.content[0].claimedDate, exact: true }).waitFor();
    await look(page, 'workflow-tasks-claimed');

    await page.getByRole('button', { name: 'Unclaim Check claim' }).click();
    await page.getByText('Unclaimed Check claim').waitFor();
    await claim.waitFor();
    await row.getByRole('cell', { name: 'CREATED', exact: true }).waitFor();
    const after = await json(
      '/workflow/v1/tasks/byBusinessKey?processDefinitionKey=review&workflowBusinessKey=CLAIM-1',
    );
    assert.equal([after.content[0].assignee, after.content[0].claimedDate], [null, null]);
  });

  test('a claim someone else took meanwhile is refused in place; the list keeps its search', async () => {
    await json(`/workflow/v1/tasks/${claimTaskId}/claim`, {
      method: 'POST',
      body: JSON.stringify({ assignee: 'gonzo' }),
    });
    await page.getByRole('button', { name: 'Claim Check claim' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The claim was refused' });
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /TASK\.CLAIMED_BY_ANOTHER/);
    assert.match((await alert.textContent()) ?? '', /gonzo/);
    assert.is(await page.getByLabel('Text (any field)').inputValue(), 'CLAIM-1');
    // the row shows who holds it now, and offers to release that claim
    const row = page.getByRole('row').filter({ hasText: 'CLAIM-1' });
    await row.getByRole('cell', { name: 'gonzo', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Unclaim Check claim' }).waitFor();
    await look(page, 'workflow-tasks-claim-refused');
  });

  test('instances are listed by state alone, newest first', async () => {
    // one completed instance, one more active one; the list reads a projection: wait until it has them
    const done = await start('review', 'DONE-1');
    await json(`/workflow/v1/tasks/${done.content[0].id}/complete`, {
      method: 'POST',
      body: JSON.stringify({ assignee: 'gonzo' }),
    });
    await start('review', 'CLAIM-2');
    await eventually(async () => {
      const listed = await json('/workflow/v1/process-instances?state=COMPLETED');
      return listed.total === 1 && (await json('/workflow/v1/process-instances?state=ACTIVE')).total === 2;
    }, 'the instances in their list');

    await page.getByRole('link', { name: 'Process instances' }).click();
    await page.getByRole('heading', { level: 1, name: 'Process instances' }).waitFor();
    // the first page lists every instance, newest first
    const all = page.getByRole('table', { name: 'All instances' });
    await all.getByRole('cell', { name: 'DONE-1', exact: true }).waitFor();
    const keys = await all.locator('tbody tr td:nth-of-type(2)').allTextContents();
    assert.equal(keys, ['CLAIM-2', 'DONE-1', 'CLAIM-1']);

    await page.getByLabel('State').selectOption('COMPLETED');
    await page.getByRole('button', { name: 'Find' }).click();
    const completed = page.getByRole('table', { name: 'COMPLETED instances' });
    await completed.getByRole('cell', { name: 'DONE-1', exact: true }).waitFor();
    assert.equal(await completed.locator('tbody tr td:nth-of-type(2)').allTextContents(), ['DONE-1']);
    await look(page, 'workflow-instances-by-state');

    await page.getByLabel('State').selectOption('ACTIVE');
    await page.getByRole('button', { name: 'Find' }).click();
    const active = page.getByRole('table', { name: 'ACTIVE instances' });
    await active.getByRole('cell', { name: 'CLAIM-1', exact: true }).waitFor();
    assert.equal(await active.locator('tbody tr td:nth-of-type(2)').allTextContents(), ['CLAIM-2', 'CLAIM-1']);
  });

  test('a timer of 30 days is on the Timers page with its due time and leads to its instance', async () => {
    const before = Date.now();
    const started = await start('cooling', 'COOL-1');
    const instanceId = started.links[0].href.split('/').pop() as string;
    const timer = await eventually(async () => {
      const listed = await json('/workflow/v1/timers');
      return listed.items.find((t: { processInstanceId: string }) => t.processInstanceId === instanceId);
    }, 'the timer in the list');
    const due = Date.parse(`${timer.dueDate}Z`);
    assert.ok(due >= before + 30 * 86400_000 && due <= Date.now() + 30 * 86400_000, timer.dueDate);

    await page.getByRole('link', { name: 'Timers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Timers' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'COOL-1' });
    await row.getByRole('rowheader', { name: timer.dueDate, exact: true }).waitFor();
    await row.getByRole('cell', { name: 'coolingOff (timer event)' }).waitFor();
    await row.getByRole('cell', { name: 'cooling', exact: true }).waitFor();
    await look(page, 'workflow-timers');

    await row.getByRole('link', { name: instanceId }).click();
    await page.getByRole('heading', { level: 1, name: `Process instance ${instanceId}` }).waitFor();
    await page.getByText(`coolingOff due ${timer.dueDate}`).waitFor();
  });

  test('no serious or critical accessibility violation, nothing refused by the CSP, no page error', () => {
    assert.equal(problems, []);
    assert.equal(refusals, []);
  });

  test.after(async () => {
    await context.close();
    await browser.close();
    await p.stop();
  });

  test.run();
}
