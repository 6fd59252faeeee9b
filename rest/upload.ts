/**
 * Image uploads, on the routes that declare one: the raw image as the body (Content-Type image/jpeg,
 * image/png or image/webp) or a multipart form with the image in one named field. Over the limit is 413,
 * another content type 415, a form without the field 400. What the bytes really are is the domain's
 * check, not this one's: a client's Content-Type is only a claim.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Context, Next } from 'koa';
import { koaBody } from 'koa-body';
import { ValidationError } from '../core/errors.js';
import { HttpProblem } from './problems.js';

export interface UploadSpec {
  /** The multipart field that carries the file. */
  field: string;
  maxBytes: number;
  /** Content types accepted as a raw body. */
  types: string[];
}

export function imageUpload(spec: UploadSpec) {
  const tooLarge = () => new HttpProblem(413, 'payload_too_large', `The file is larger than ${Math.round(spec.maxBytes / 1024 / 1024)} MiB: send a smaller one.`);
  // Each form is written into a directory of its own, removed afterwards whatever happened: formidable
  // leaves what it wrote when it gives up part-way.
  const multipart = (uploadDir: string) =>
    koaBody({
      multipart: true,
      json: false,
      urlencoded: false,
      text: false,
      // One file, and little else: a form's text fields are held in memory, so they get a small budget.
      formidable: { uploadDir, maxFiles: 1, maxFileSize: spec.maxBytes, maxTotalFileSize: spec.maxBytes, maxFields: 10, maxFieldsSize: 64 * 1024 },
    });

  return async function readUpload(ctx: Context, next: Next): Promise<void> {
    if (Number(ctx.get('content-length')) > spec.maxBytes + 64 * 1024) throw tooLarge();
    if (ctx.is(...spec.types)) {
      ctx.state.upload = await readRaw(ctx, spec.maxBytes, tooLarge);
    } else if (ctx.is('multipart/form-data')) {
      const uploadDir = await fs.mkdtemp(path.join(os.tmpdir(), 'upload-'));
      try {
        await multipart(uploadDir)(ctx, async () => undefined);
        const files = ctx.request.files?.[spec.field];
        const file = Array.isArray(files) ? files[0] : files;
        if (!file) throw new ValidationError([{ field: spec.field, rule: 'required', message: `send the image in the form field "${spec.field}"` }]);
        ctx.state.upload = await fs.readFile(file.filepath);
      } catch (error) {
        throw translate(error, spec, tooLarge);
      } finally {
        await fs.rm(uploadDir, { recursive: true, force: true });
      }
    } else {
      throw new HttpProblem(
        415,
        'unsupported_media_type',
        `Send the image as the body with Content-Type ${spec.types.join(', ')}, or as the "${spec.field}" field of a multipart/form-data form.`,
      );
    }
    return next();
  };
}

async function readRaw(ctx: Context, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Formidable's refusals in our words: its "too many files" is not "too large". */
function translate(error: unknown, spec: UploadSpec, tooLarge: () => Error): unknown {
  if (error instanceof ValidationError) return error;
  const code = (error as { code?: number }).code;
  if (code === FORMIDABLE_MAX_FILES_EXCEEDED) {
    return new ValidationError([{ field: spec.field, rule: 'one_file', message: `send one file, in the form field "${spec.field}"` }]);
  }
  const status = (error as { httpCode?: number; status?: number }).httpCode ?? (error as { status?: number }).status;
  if (status === 413) return tooLarge();
  return new HttpProblem(400, 'invalid_body', 'The multipart form could not be read: send it again.');
}

/** formidable's FormidableError code for more files than `maxFiles`. */
const FORMIDABLE_MAX_FILES_EXCEEDED = 1015;
