import test from 'ava';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../core/crypto/secret-box.js';

const key = () => randomBytes(32).toString('base64');

test('a sealed secret opens with its context, and not with another or after tampering', (t) => {
  const box = new SecretBox([key()]);
  const sealed = box.seal('s3cret-value', 'oauth_client:abc');
  t.true(SecretBox.isSealed(sealed));
  t.false(sealed.includes('s3cret'));
  t.not(box.seal('s3cret-value', 'oauth_client:abc'), sealed, 'a fresh IV every time');
  t.is(box.open(sealed, 'oauth_client:abc'), 's3cret-value');
  t.throws(() => box.open(sealed, 'oauth_client:other'));
  const parts = sealed.split('.');
  const body = Buffer.from(parts[3] as string, 'base64url');
  body[0] = (body[0] as number) ^ 1;
  t.throws(() => box.open([...parts.slice(0, 3), body.toString('base64url')].join('.'), 'oauth_client:abc'));
});

test('keys rotate: the newest seals, older ones still open what they sealed', (t) => {
  const older = `k1:${key()}`;
  const sealedBefore = new SecretBox([older]).seal('before', 'c');
  const rotated = new SecretBox([`k2:${key()}`, older]);
  t.is(rotated.open(sealedBefore, 'c'), 'before');
  t.true(rotated.seal('after', 'c').startsWith('v1.k2.'));
  t.throws(() => new SecretBox([`k3:${key()}`]).open(sealedBefore, 'c'), { message: /key id "k1"/ });
  t.throws(() => new SecretBox(['dG9vIHNob3J0']), { message: /32 bytes/ });
});
