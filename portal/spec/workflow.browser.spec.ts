// The Workflow area in Debian's headless Chromium: the demo admin deploys a file the engine refuses (the
// page names the element), then examples/invoice.bpmn by dropping it, and sees its diagram drawn by
// bpmn-js; an instance started through the API shows its token on the instance's diagram; its task is
// completed from the task list and the token moves on. Every page is scanned by axe-core and
// photographed at 1280 and 390 px (.screenshots/portal/); nothing may be refused by the CSP.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the Workflow area in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, ROOT, watchedPage } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );

  ensurePortalBuilt();
  const p = await startPortalPlatform();
  const browser: Browser = await launchChromium();
  const invoice = readFileSync(path.join(ROOT, 'examples', 'invoice.bpmn'), 'utf8');
  const refused = invoice.replace(
    '<userTask id="payInvoice" name="Pay invoice" camunda:candidateGroups="accounting"/>',
    '<receiveTask id="payInvoice" name="Pay invoice"/>',
  );
  const { jar } = await portalSignIn(p.base);

  const { context, page, problems, refusals, look } = await watchedPage(browser, {
    viewport: { width: 1280, height: 800 },
  });

  const test = suite('the Workflow area in Chromium');

  test('deploy: a refused file names its element, a dropped file deploys and its diagram is drawn', async () => {
    await page.goto(`${p.base}/portal/workflow`);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Process definitions' }).waitFor();
    await page.getByText('No process definitions yet').waitFor();

    await page
      .getByLabel('BPMN 2.0 files')
      .setInputFiles({ name: 'refused.bpmn', mimeType: 'application/xml', buffer: Buffer.from(refused) });
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The deployment was refused' });
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /DEPLOYMENT\.UNSUPPORTED_ELEMENT/);
    const where = page.getByRole('definition').filter({ hasText: 'payInvoice' });
    await where.waitFor();
    assert.match((await page.locator('.wf-problem').textContent()) ?? '', /Element<receiveTask>Element idpayInvoice/);
    // the refused file is drawn with the element the error names marked
    await page.locator('.djs-element.wf-failed[data-element-id="payInvoice"]').waitFor();
    await look(page, 'workflow-deploy-refused');

    // a drop on the zone, as a file dragged from the desktop arrives
    await page.getByTestId('deploy-drop').evaluate((zone, xml) => {
      const data = new DataTransfer();
      data.items.add(new File([xml], 'invoice.bpmn', { type: 'application/xml' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, invoice);
    await page.getByRole('link', { name: 'Invoice approval version 1' }).first().waitFor();
    await page.getByRole('rowheader', { name: 'invoice' }).waitFor();
    await look(page, 'workflow-definitions');

    await page.getByRole('link', { name: 'v1 of invoice' }).click();
    await page.getByRole('heading', { level: 1, name: 'Invoice approval v1' }).waitFor();
    await page.locator('.djs-element[data-element-id="approveInvoice"]').waitFor();
    assert.ok(await page.locator('.djs-element[data-element-id="toPay"]').count(), 'the flows are drawn');
    await look(page, 'workflow-definition');
  });

  test('an instance started through the API shows its token on its diagram', async () => {
    const started = await portalApi(p.base, jar, '/workflow/v1/process-instances', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        processDefinitionKey: 'invoice',
        businessKey: 'INV-7',
        queryVariables: { TaskType: 'invoice', WorkflowBusinessKey: 'INV-7' },
        controlVariables: { approverGroups: ['accounting'] },
      }),
    });
    assert.is(started.status, 200, await started.clone().text());
    await page.getByRole('link', { name: 'Process instances' }).click();
    await page.getByRole('heading', { level: 1, name: 'Process instances' }).waitFor();
    await page.getByLabel('Business key').fill('INV-7');
    await page.getByRole('button', { name: 'Find' }).click();
    const link = page.getByRole('table', { name: 'Instances of INV-7' }).getByRole('link');
    await link.waitFor();
    await look(page, 'workflow-instances');
    await link.click();
    await page.locator('.djs-element.wf-active[data-element-id="approveInvoice"]').waitFor();
    assert.ok(await page.locator('.djs-element.wf-completed[data-element-id="received"]').count(), 'start completed');
    await page.getByText('Active: approveInvoice').waitFor();
    await page.getByRole('cell', { name: 'TaskCreated' }).first().waitFor();
    await look(page, 'workflow-instance');
  });

  test("the task is completed from the task list with its form's variables, and the token moves", async () => {
    const instanceUrl = page.url();
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
    await page.getByLabel('Text (any field)').fill('INV-7');
    await page.getByRole('button', { name: 'Search' }).click();
    // the search index has latency: search again until the task is there
    const complete = page.getByRole('button', { name: 'Complete Approve invoice' });
    for (let i = 0; i < 20 && (await complete.count()) === 0; i++) {
      await page.waitForTimeout(250);
      await page.getByRole('button', { name: 'Search' }).click();
    }
    // grouped by a field: the rows carry their group's value
    await page.getByLabel('Group by').fill('TaskType');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('columnheader', { name: 'TaskType' }).waitFor();
    await page.getByRole('cell', { name: 'invoice', exact: true }).waitFor();
    await page.getByLabel('Group by').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('columnheader', { name: 'TaskType' }).waitFor({ state: 'detached' });

    await complete.focus();
    await page.keyboard.press('Enter');
    const assignee = page.getByLabel('Claim as (assignee)');
    await assignee.waitFor();
    assert.ok(await assignee.evaluate((e) => e === document.activeElement), 'the completion form takes the focus');
    await look(page, 'workflow-tasks');
    await assignee.fill('admin');
    await page.getByLabel('Form variables (JSON object)').fill('{"approved": true}');
    await page.getByRole('button', { name: 'Complete task' }).click();
    await page.getByText(/^Completed /).waitFor();
    await page.goto(instanceUrl);
    await page.locator('.djs-element.wf-active[data-element-id="payInvoice"]').waitFor();
    assert.ok(
      await page.locator('.djs-element.wf-completed[data-element-id="approveInvoice"]').count(),
      'the approval is on the completed path',
    );
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
