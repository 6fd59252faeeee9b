/**
 * Image uploads, on the routes that declare one: the raw image as the body (Content-Type image/jpeg,
 * image/png or image/webp) or a multipart form with the image in one named field. Over the limit is 413,
 * another content type 415, a form without the field 400. What the bytes really are is the domain's
 * check, not this one's: a client's Content-Type is only a claim.
 */
import fs from 'node:fs/promises';
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
  const multipart = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: { maxFiles: 1, maxFileSize: spec.maxBytes, maxTotalFileSize: spec.maxBytes, maxFields: 10 },
  });

  return async function readUpload(ctx: Context, next: Next): Promise<void> {
    if (Number(ctx.get('content-length')) > spec.maxBytes + 64 * 1024) throw tooLarge();
    if (ctx.is(...spec.types)) {
      ctx.state.upload = await readRaw(ctx, spec.maxBytes, tooLarge);
    } else if (ctx.is('multipart/form-data')) {
      try {
        await multipart(ctx, async () => undefined);
      } catch (error) {
        const status = (error as { httpCode?: number; status?: number }).httpCode ?? (error as { status?: number }).status;
        if (status === 413) throw tooLarge();
        throw new HttpProblem(400, 'invalid_body', 'The multipart form could not be read: send it again.');
      }
      const files = ctx.request.files?.[spec.field];
      const file = Array.isArray(files) ? files[0] : files;
      if (!file) throw new ValidationError([{ field: spec.field, rule: 'required', message: `send the image in the form field "${spec.field}"` }]);
      try {
        ctx.state.upload = await fs.readFile(file.filepath);
      } finally {
        await fs.rm(file.filepath, { force: true });
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
