import busboy from 'busboy';
import type { Request } from 'express';
import type { DeployFile } from '../../commands/workflow/deploy.commands.ts';
import { MAX_BPMN_BYTES, MAX_DEPLOY_FILES } from '../../commands/workflow/deploy.commands.ts';
import { coreError } from '../../domain/core/core.errors.ts';

/**
 * Reads a deployment upload: `multipart/form-data` whose `files` parts hold BPMN 2.0 XML (UTF-8), plus an
 * optional `deployment-name` (or `name`) field. Anything else is a 400 naming what was wrong; a file past
 * the size limit a 413.
 */
export function readDeploymentUpload(req: Request): Promise<{ files: DeployFile[]; name?: string }> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    return Promise.reject(
      coreError(
        'REQUEST.INVALID',
        'a deployment is multipart/form-data with one or more `files` parts holding BPMN 2.0 XML',
        [{ in: 'headers', field: 'content-type', message: 'must be multipart/form-data', keyword: 'type' }],
      ),
    );
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { fileSize: MAX_BPMN_BYTES, files: MAX_DEPLOY_FILES, fields: 20, fieldSize: 1024 },
      });
    } catch (err) {
      reject(
        coreError(
          'REQUEST.INVALID',
          `unreadable multipart body: ${err instanceof Error ? err.message : String(err)}`,
          [],
        ),
      );
      return;
    }
    const files: DeployFile[] = [];
    const pending: Promise<void>[] = [];
    let name: string | undefined;
    let failure: Error | undefined;
    bb.on('file', (field, stream, info) => {
      if (field !== 'files') {
        stream.resume();
        failure ??= coreError('REQUEST.INVALID', `unexpected file part "${field}": BPMN files go in the "files" part`, [
          { in: 'body', field, message: 'is not allowed', keyword: 'additionalProperties' },
        ]);
        return;
      }
      const chunks: Buffer[] = [];
      pending.push(
        new Promise<void>((done) => {
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('limit', () => {
            failure ??= coreError(
              'REQUEST.TOO_LARGE',
              `${info.filename}: a BPMN file may have at most ${MAX_BPMN_BYTES} bytes`,
              { file: info.filename, max: MAX_BPMN_BYTES },
            );
          });
          stream.on('close', () => {
            files.push({
              name: info.filename || `file-${files.length + 1}.bpmn`,
              content: Buffer.concat(chunks).toString('utf8'),
            });
            done();
          });
        }),
      );
    });
    bb.on('field', (field, value) => {
      if (field === 'deployment-name' || field === 'name') name = value;
    });
    bb.on('filesLimit', () => {
      failure ??= coreError('REQUEST.INVALID', `at most ${MAX_DEPLOY_FILES} files per deployment`, []);
    });
    bb.on('error', (err: unknown) =>
      reject(
        coreError(
          'REQUEST.INVALID',
          `unreadable multipart body: ${err instanceof Error ? err.message : String(err)}`,
          [],
        ),
      ),
    );
    bb.on('close', () => {
      Promise.all(pending).then(() => {
        if (failure !== undefined) reject(failure);
        else
          resolve({
            files: files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
            ...(name !== undefined && { name }),
          });
      }, reject);
    });
    req.pipe(bb);
  });
}
