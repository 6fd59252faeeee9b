/**
 * The README's examples run as written (issue 23, item 6). Every ```sh block of README.md runs, in order,
 * in one bash session (each block under `set -e -o pipefail`; what a block sets, later blocks use),
 * against a fresh `npm start` on the embedded database, as a reader pasting them would. The examples'
 * service, `http://localhost:8080`, is pointed at the test's own (free ports); the session's working
 * directory is a fresh one whose `./.data` is the service's DATA_DIR, and `npm` and `npx` run in the
 * project, so the examples' paths stand as written and the files they write stay out of the checkout.
 *
 * Every `curl` answers the status written after it (`# 201 ...` on its last line or on the comment line
 * right after the command), or a 2xx when none is written: a bash function in front of curl records each
 * answer's status (the reader's text is plain curl). A comment before a block tells the test what the
 * reader does instead of pasting it:
 *
 *   <!-- readme-test: start, <why> -->    the test starts the service here (the block is `npm start`)
 *   <!-- readme-test: skip, <why> -->     the block cannot run here; the reason is required
 *   <!-- readme-test: browser <steps> --> a person acts in a browser first (or, "while it waits", while the
 *                                          block runs): the test plays that browser over HTTP, step by step
 *                                          as the comment says, and sets the variable the reader is asked
 *                                          to set (the block's `VAR=<...>` line)
 *
 * Any other block that fails, or that a comment names steps for that the test does not know, fails it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { isPage, latestCode, offeredScopes, TestBrowser, type Page } from './helpers/browser.js';
import { PROJECT_DIR } from './helpers/built.js';
import { saveCardInBrowser } from './helpers/cards.js';
// Types only: helpers/service.ts builds the service in process, and importing it would load the whole app
// into this file, whose service is a child process.
import { freePorts, type RunningService } from './helpers/service.js';

// The project's directory (this file runs from the build, dist/test/).
const PROJECT = PROJECT_DIR;
const README = path.join(PROJECT, 'README.md');
const RUNNABLE = new Set(['sh', 'bash', 'shell']);
const BLOCK_TIMEOUT_MS = 60_000;

type Marker = { kind: 'skip' | 'start' | 'browser'; text: string };

interface Block {
  /** 1-based, among the README's fenced blocks that run (sh). */
  number: number;
  /** The README line of its opening fence. */
  line: number;
  code: string;
  marker?: Marker;
}

/** The README's sh blocks, in order, each with the readme-test comment right before its fence. */
function readmeBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^(\s*)```(\S*)\s*$/.exec(lines[index] as string);
    if (!fence) continue;
    const indent = (fence[1] as string).length;
    const lang = fence[2] as string;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !/^\s*```\s*$/.test(lines[index] as string); index++) body.push((lines[index] as string).slice(indent));
    let before = start - 1;
    while (before >= 0 && (lines[before] as string).trim() === '') before--;
    const comment = before >= 0 ? (lines[before] as string).trim() : '';
    let marker: Marker | undefined;
    if (comment.includes('readme-test')) {
      const parsed = /^<!-- readme-test: (skip|start|browser)\b[,:]?\s*(.*?)\s*-->$/.exec(comment);
      if (!parsed) throw new Error(`README line ${before + 1}: a readme-test comment the test cannot read: ${comment}`);
      marker = { kind: parsed[1] as Marker['kind'], text: parsed[2] as string };
      if (marker.kind !== 'browser' && marker.text === '') throw new Error(`README line ${before + 1}: say why (${comment})`);
    }
    if (!RUNNABLE.has(lang)) {
      if (marker) throw new Error(`README line ${before + 1}: a readme-test comment before a block that is not sh (${lang || 'no language'})`);
      continue;
    }
    blocks.push({ number: blocks.length + 1, line: start + 1, code: body.join('\n'), ...(marker ? { marker } : {}) });
  }
  return blocks;
}

interface Command {
  firstLine: number;
  lastLine: number;
  /** The command with quoted text and heredoc bodies blanked out, and without comments. */
  bare: string;
  comments: string[];
}

/**
 * The block's commands as bash reads them: a command goes on past a line that ends with `\`, `|`, `&&`
 * or `||`, inside quotes and `$(...)`, and through its heredocs.
 */
function commandsOf(code: string): Command[] {
  const commands: Command[] = [];
  const lines = code.split('\n');
  // The contexts open at this point: `'` and `"` quotes, `(` a subshell or command substitution.
  const stack: string[] = [];
  let current: Command | undefined;
  const heredocs: { end: string; strip: boolean }[] = [];
  let inHeredoc: { end: string; strip: boolean } | undefined;
  for (let number = 0; number < lines.length; number++) {
    const line = lines[number] as string;
    current ??= { firstLine: number, lastLine: number, bare: '', comments: [] };
    current.lastLine = number;
    if (inHeredoc) {
      if ((inHeredoc.strip ? line.replace(/^\t+/, '') : line) === inHeredoc.end) inHeredoc = heredocs.shift();
      if (!inHeredoc) {
        commands.push(current);
        current = undefined;
      }
      continue;
    }
    let bare = '';
    let escaped = false;
    for (let i = 0; i < line.length; i++) {
      const c = line[i] as string;
      const top = stack.at(-1);
      if (top === "'") {
        if (c === "'") stack.pop();
        bare += c === "'" ? c : 'x';
        continue;
      }
      if (escaped) {
        escaped = false;
        bare += top === '"' ? 'x' : c;
        continue;
      }
      if (c === '\\') {
        escaped = true;
        bare += top === '"' ? 'x' : c;
        continue;
      }
      if (top === '"') {
        if (c === '"') stack.pop();
        else if (c === '$' && line[i + 1] === '(') {
          stack.push('(');
          bare += '$(';
          i++;
          continue;
        }
        bare += c === '"' ? c : 'x';
        continue;
      }
      if (c === '#' && (i === 0 || /[\s;&|(]/.test(line[i - 1] as string))) {
        current.comments.push(line.slice(i));
        break;
      }
      if (c === "'" || c === '"') stack.push(c);
      else if (c === '(') stack.push('(');
      else if (c === ')' && top === '(') stack.pop();
      else if (c === '<' && line[i + 1] === '<' && line[i + 2] !== '<') {
        const heredoc = /^<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/.exec(line.slice(i));
        if (heredoc) {
          heredocs.push({ end: heredoc[3] as string, strip: heredoc[1] === '-' });
          bare += heredoc[0];
          i += heredoc[0].length - 1;
          continue;
        }
      }
      bare += c;
    }
    current.bare += `${bare}\n`;
    const continues = escaped || stack.length > 0 || /(\||&&|\|\|)\s*$/.test(bare);
    if (continues) continue;
    if (heredocs.length > 0) {
      inHeredoc = heredocs.shift();
      continue;
    }
    commands.push(current);
    current = undefined;
  }
  if (current) commands.push(current);
  return commands;
}

interface CurlCall {
  /** Line within the block (0-based) where its command ends. */
  line: number;
  /** An HTTP status, or `2xx`. */
  expected: string;
}

/** Each curl the block runs, in order, with the status the README states for it. */
function curlCallsOf(code: string): CurlCall[] {
  const commands = commandsOf(code);
  const calls: CurlCall[] = [];
  commands.forEach((command, index) => {
    const count = [...command.bare.matchAll(/(?:^|[\s;&|(])curl(?=\s)/g)].length;
    if (count === 0) return;
    const next = commands[index + 1];
    const stated =
      command.comments.map((comment) => /^#\s*(\d{3})\b/.exec(comment)?.[1]).find(Boolean) ??
      (next && next.firstLine === command.lastLine + 1 && next.bare.trim() === '' ? /^#\s*(\d{3})\b/.exec(next.comments[0] ?? '')?.[1] : undefined);
    for (let each = 1; each <= count; each++) calls.push({ line: command.lastLine, expected: each === count && stated ? stated : '2xx' });
  });
  return calls;
}

/** The variables a reader sets in a shell: everything of the test's own environment but the service's settings. */
function readerEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const settings = [...fs.readFileSync(path.join(PROJECT, '.env.example'), 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1] as string);
  for (const name of settings) delete env[name];
  // ava's own; the service defaults to development, as `npm start` by a reader does.
  delete env.NODE_ENV;
  return env;
}

interface Service {
  child: ChildProcess;
  port: number;
  vaultPort: number;
  demoPort: number;
  output: () => string;
}

/** `npm start`, as the README says, on free ports and `dataDir`; again on other ports if one was taken meanwhile. */
async function npmStart(dataDir: string, attempt = 0): Promise<Service> {
  const [port, vaultPort, demoPort, travelPort] = (await freePorts(4)) as [number, number, number, number];
  const env = { ...readerEnvironment(), PORT: String(port), VAULT_PORT: String(vaultPort), DEMO_AIRLINE_PORT: String(demoPort), DEMO_TRAVEL_PORT: String(travelPort), DATA_DIR: dataDir };
  const child = spawn('npm', ['start'], { cwd: PROJECT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const started = await new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not say "listening" within 60 s:\n${output}`)), 60_000);
    const check = () => {
      if (/"msg":"listening"/.test(output)) {
        clearTimeout(timer);
        resolve(true);
      }
    };
    child.stdout.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 2 && /already in use/.test(output) && attempt < 3) resolve(false);
      else reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  if (!started) return npmStart(dataDir, attempt + 1);
  return { child, port, vaultPort, demoPort, output: () => output };
}

/** SIGTERM to the process group the test started (npm and the service it exec'd), SIGKILL after 10 s. */
async function stopGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // gone already
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** The bash functions in front of the reader's `curl` and `npm`. */
function prelude(workDir: string): string {
  return `
__rt_dir=${JSON.stringify(path.join(workDir, '.readme-test'))}
mkdir -p "$__rt_dir"
for tool in curl jq openssl; do
  command -v "$tool" >/dev/null || { echo "readme-test: the README's examples need $tool (.ci/run installs it)" >&2; exit 3; }
done
npm() { (cd ${JSON.stringify(PROJECT)} && command npm "$@"); }
npx() { (cd ${JSON.stringify(PROJECT)} && command npx "$@"); }
curl() {
  local head body rc=0 status expected n
  head=$(mktemp "$__rt_dir/head.XXXXXX")
  body=$(mktemp "$__rt_dir/body.XXXXXX")
  command curl --no-progress-meter -D "$head" -o "$body" "$@" || rc=$?
  status=$(awk '/^HTTP\\//{ s = $2 } END { print s }' "$head")
  cat "$body"
  printf '%s\\n' "\${status:-none}" >> "$__rt_dir/statuses.$__rt_block"
  n=$(( $(wc -l < "$__rt_dir/statuses.$__rt_block") ))
  expected=$(sed -n "\${n}p" "$__rt_dir/expected.$__rt_block")
  if [ "$rc" -ne 0 ]; then rm -f "$head" "$body"; return "$rc"; fi
  case "$expected" in
    2xx) [[ "$status" == 2?? ]] ;;
    *) [ "$status" = "$expected" ] ;;
  esac || {
    printf '\\nreadme-test: curl #%s of this block answered %s; the README says %s: %s\\n' "$n" "$status" "\${expected:-nothing, it runs no more curls}" "$(head -c 800 "$body")" >&2
    rm -f "$head" "$body"
    return 1
  }
  rm -f "$head" "$body"
}
`;
}

interface Session {
  send(command: string): void;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  child: ChildProcess;
}

function bashSession(workDir: string): Session {
  const child = spawn('bash', ['--noprofile', '--norc'], { cwd: workDir, env: { ...readerEnvironment(), DATA_DIR: path.join(workDir, '.data') }, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { send: (command) => child.stdin.write(`${command}\n`), stdout: () => stdout, stderr: () => stderr, exited, child };
}

/** What the reader's browser holds between blocks: its cookies, and where it is. */
interface BrowserState {
  browser: TestBrowser;
  base: string;
  at?: Page | { redirectedTo: string };
}

function page(state: BrowserState, what: string): Page {
  if (!state.at || !isPage(state.at) || state.at.status !== 200) throw new Error(`the browser is not on a page of ours ${what}: ${JSON.stringify(state.at).slice(0, 600)}`);
  return state.at;
}

/**
 * The browser steps a readme-test comment names, played in order; returns the variables set (from the
 * address bar). Each step is a phrase of the comment; a comment with none the test knows fails it.
 */
async function playBrowser(state: BrowserState, text: string, printed: string, whileRunning?: () => string): Promise<Record<string, string>> {
  const steps: { at: number; run: () => Promise<void> }[] = [];
  const variables: Record<string, string> = {};
  const phrase = (pattern: RegExp, run: (match: RegExpExecArray) => Promise<void>) => {
    const match = pattern.exec(text);
    if (match) steps.push({ at: match.index, run: () => run(match) });
  };
  phrase(/opens the URL the previous block printed/, async () => {
    const urls = printed.match(/https?:\/\/\S+/g);
    if (!urls) throw new Error(`the previous block printed no URL:\n${printed}`);
    state.at = await state.browser.open(urls.at(-1) as string);
  });
  phrase(/opens the URL agent-token prints while it waits/, async () => {
    const deadline = Date.now() + 30_000;
    let url: string | undefined;
    while (!(url = /Open this URL in a browser[^\n]*\n\s*(https?:\/\/\S+)/.exec(whileRunning?.() ?? '')?.[1])) {
      if (Date.now() > deadline) throw new Error(`agent-token printed no sign-in URL within 30 s:\n${whileRunning?.()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    state.at = await state.browser.open(url);
  });
  phrase(/signs in as ([^\s,;]+@[^\s,;]+)/, async (match) => {
    const signIn = page(state, 'to sign in');
    if (!signIn.html.includes('name="email"')) throw new Error(`no e-mail field on ${signIn.url}`);
    state.at = await state.browser.submit(signIn, '/email', { email: match[1] as string });
  });
  phrase(/enters the code mailed to ([^\s,;]+@[^\s,;]+)/, async (match) => {
    const codePage = page(state, 'to enter the code');
    if (!codePage.html.includes('name="code"')) throw new Error(`no code field on ${codePage.url}`);
    state.at = await state.browser.submit(codePage, '/code', { code: await latestCode(state.base, match[1] as string) });
  });
  phrase(/\ballows\b/, async () => {
    const consent = page(state, 'to allow');
    if (!consent.html.includes('name="scope"')) throw new Error(`no consent page at ${consent.url} (signed in already, the browser should have gone straight to consent):\n${consent.html.slice(0, 600)}`);
    state.at = await state.browser.submit(consent, '/consent', { scope: offeredScopes(consent.html) });
    if (isPage(state.at)) throw new Error(`consent did not go back to the app: ${state.at.status} ${state.at.html.slice(0, 600)}`);
    // A loopback redirect is a program waiting for it (agent-token): the browser lands there.
    const back = new URL(state.at.redirectedTo);
    if (back.hostname === '127.0.0.1' && whileRunning) {
      const landed = await fetch(back);
      if (landed.status !== 200) throw new Error(`the program behind ${back.origin} answered ${landed.status}: ${await landed.text()}`);
    }
  });
  phrase(/sets ([A-Z_][A-Z0-9_]*) from the address bar/, async (match) => {
    if (!state.at || isPage(state.at)) throw new Error(`the browser was not sent back to the app: ${JSON.stringify(state.at).slice(0, 600)}`);
    const code = new URL(state.at.redirectedTo).searchParams.get('code');
    if (!code) throw new Error(`no code in the address bar: ${state.at.redirectedTo}`);
    variables[match[1] as string] = code;
  });
  phrase(/adds the card ([\d ]+\d) on \/demo\/cards/, async (match) => {
    // The page the reader opens, on the hosted pages' session; then what its component does as they type.
    const demo = await state.browser.open(`${state.base}/demo/cards`);
    if (!isPage(demo) || demo.status !== 200) throw new Error(`/demo/cards did not open for the signed-in browser: ${JSON.stringify(demo).slice(0, 300)}`);
    const served = { url: state.base } as RunningService;
    await saveCardInBrowser(served, state.browser, { number: (match[1] as string).replace(/ /g, '') });
  });
  if (steps.length === 0) throw new Error(`no browser step the test knows in "${text}"`);
  for (const step of steps.sort((a, b) => a.at - b.at)) await step.run();
  return variables;
}

/** The block as the test runs it: the service's port for the README's, and the reader's own values set. */
function asRun(block: Block, service: Service, variables: Record<string, string>): string {
  let code = block.code.replaceAll('localhost:8080', `localhost:${service.port}`).replaceAll('localhost:8081', `localhost:${service.vaultPort}`).replaceAll('localhost:8082', `localhost:${service.demoPort}`);
  for (const [name, value] of Object.entries(variables)) {
    const assignment = new RegExp(`^${name}=<[^>\\n]*>$`, 'm');
    if (!assignment.test(code)) throw new Error(`README line ${block.line}: the browser sets ${name}, but the block has no line ${name}=<...> for the reader to fill in`);
    code = code.replace(assignment, `${name}='${value.replaceAll("'", `'\\''`)}'`);
  }
  return code;
}

function fail(t: ExecutionContext, history: string[], block: Block, why: string, session: Session, from: { stdout: number; stderr: number }, statuses: string): never {
  t.log(`${history.join('\n')}\nREADME line ${block.line}:\n${block.code}`);
  throw new Error(
    `the README's sh block at line ${block.line} ${why}\n--- its curls' statuses so far ---\n${statuses}\n--- its output ---\n${session.stdout().slice(from.stdout).slice(-3000)}\n--- its errors ---\n${session.stderr().slice(from.stderr).slice(-3000)}`,
  );
}

test('the README’s sh examples run in order against a fresh `npm start`, each curl answering the status the README states', async (t) => {
  t.timeout(180_000);
  const started = Date.now();
  const blocks = readmeBlocks(fs.readFileSync(README, 'utf8'));
  t.true(blocks.length > 10, 'the README has its examples');
  t.is(blocks.filter((block) => block.marker?.kind === 'start').length, 1, 'exactly one block is `npm start`, played by the test');

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-readme-'));
  const dataDir = path.join(workDir, '.data');
  let service: Service | undefined;
  const session = bashSession(workDir);
  t.teardown(async () => {
    await stopGroup(session.child);
    await stopGroup(service?.child);
    fs.rmSync(workDir, { recursive: true, force: true });
  });
  fs.writeFileSync(path.join(workDir, 'prelude.sh'), prelude(workDir));
  session.send(`source ${JSON.stringify(path.join(workDir, 'prelude.sh'))}`);
  let browser: BrowserState | undefined;
  let printed = '';
  // What ran, and how long it took: logged when a block fails, summed up when all ran.
  const history: string[] = [];
  const took: { line: number; ms: number }[] = [];
  let startMs = 0;

  for (const block of blocks) {
    const blockStarted = Date.now();
    if (block.marker?.kind === 'skip') {
      history.push(`line ${block.line}: skipped, ${block.marker.text}`);
      continue;
    }
    if (block.marker?.kind === 'start') {
      if (service) throw new Error(`README line ${block.line}: the service runs already`);
      service = await npmStart(dataDir);
      browser = { browser: new TestBrowser(`http://localhost:${service.port}`), base: `http://localhost:${service.port}` };
      startMs = Date.now() - blockStarted;
      history.push(`line ${block.line}: npm start on port ${service.port} (${startMs} ms)`);
      continue;
    }
    if (!service || !browser) throw new Error(`README line ${block.line}: a block before the one the test starts the service at`);
    const from = { stdout: session.stdout().length, stderr: session.stderr().length };
    const calls = curlCallsOf(block.code);
    const workFile = (name: string) => path.join(workDir, '.readme-test', `${name}.${block.number}`);

    const browserText = block.marker?.kind === 'browser' ? block.marker.text : undefined;
    const duringBlock = browserText !== undefined && /while it waits/.test(browserText);
    let variables: Record<string, string> = {};
    if (browserText !== undefined && !duringBlock) variables = await playBrowser(browser, browserText, printed);

    fs.writeFileSync(workFile('expected'), calls.map((call) => `${call.expected}\n`).join(''));
    fs.writeFileSync(workFile('block'), `${asRun(block, service, variables)}\n`);
    const done = `@@readme-test: block ${block.number} done@@`;
    session.send(`__rt_block=${block.number}; : > "$__rt_dir/statuses.${block.number}"; set -eo pipefail; source ${JSON.stringify(workFile('block'))} < /dev/null; set +eo pipefail; printf '\\n%s\\n' '${done}'`);

    const browserDuring = duringBlock ? playBrowser(browser, browserText as string, printed, () => session.stderr().slice(from.stderr)) : undefined;
    let settled = false;
    const outcome = await Promise.race([
      (async () => {
        while (!session.stdout().includes(done, from.stdout)) {
          if (settled) return 'settled';
          if (Date.now() - blockStarted > BLOCK_TIMEOUT_MS) return 'timeout';
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        return 'done';
      })(),
      session.exited.then((code) => `exited with ${code}`),
      // A browser step that fails ends the wait (the block waits for it in vain).
      ...(browserDuring ? [browserDuring.then(() => new Promise<never>(() => {}))] : []),
    ]).finally(() => (settled = true));
    if (browserDuring) await browserDuring;
    const statuses = fs.existsSync(workFile('statuses')) ? fs.readFileSync(workFile('statuses'), 'utf8').split('\n').filter(Boolean) : [];
    const expected = calls.map((call) => call.expected);
    const compared = `answered ${JSON.stringify(statuses)}; the README states ${JSON.stringify(expected)}`;
    if (outcome === 'timeout') fail(t, history, block, `did not finish within ${BLOCK_TIMEOUT_MS / 1000} s: does it wait for something a reader does? mark it (readme-test comment)`, session, from, compared);
    if (outcome !== 'done') fail(t, history, block, `failed (bash ${outcome}) under set -e -o pipefail`, session, from, compared);
    if (statuses.length !== expected.length || statuses.some((status, index) => (expected[index] === '2xx' ? !/^2\d\d$/.test(status) : status !== expected[index]))) {
      fail(t, history, block, `ran curls that ${compared}`, session, from, compared);
    }
    printed = session.stdout().slice(from.stdout).replace(done, '');
    took.push({ line: block.line, ms: Date.now() - blockStarted });
    history.push(`line ${block.line}: ${statuses.length ? `curl ${statuses.join(', ')}` : 'ok'}${browserText ? ` (browser: ${browserText})` : ''} (${Date.now() - blockStarted} ms)`);
  }
  t.true(took.length > 10, 'most examples ran');
  const slowest = took.toSorted((a, b) => b.ms - a.ms).slice(0, 3);
  const skipped = blocks.filter((block) => block.marker?.kind === 'skip');
  t.log(
    `${took.length} blocks ran in ${Date.now() - started} ms (npm start ${startMs} ms; the slowest blocks: ${slowest.map((each) => `line ${each.line}, ${each.ms} ms`).join('; ')}); ` +
      `${skipped.length} skipped: ${skipped.map((block) => `line ${block.line} (${block.marker?.text})`).join(', ')}`,
  );
});

test('the status the README states for each curl of a block: on its last line, or on the comment line right after it; else a 2xx', (t) => {
  const block = [
    'KEY=$(node -p "require(\'./x.json\').key")',
    'curl -X POST http://localhost:8080/a \\',
    "  -d '{\"a\": 1,",
    '       "b": "# 404 is not a comment"}\'   # 201 {"id": "<uuid>"}',
    'curl -s http://localhost:8080/b | jq .   # newest first',
    '# 404 {"code": "not_found"}',
    'OFFER_ID=$(curl -s -X POST http://localhost:8080/c --data @offer.json \\',
    '  | jq -r .offer_id)',
    'curl -X POST http://localhost:8080/d -d @- <<EOF',
    '{"curl": "$OFFER_ID"}',
    'EOF',
    '# 422 {"code": "flight_departed"}',
    'echo "curl http://localhost:8080/e"',
    'curl http://localhost:8080/f',
    '',
    '# 500 a comment after a blank line states nothing',
  ].join('\n');
  t.deepEqual(
    curlCallsOf(block).map((call) => call.expected),
    ['201', '404', '2xx', '422', '2xx'],
  );
  t.deepEqual(
    commandsOf(block).filter((command) => command.bare.trim() !== '').map((command) => [command.firstLine, command.lastLine]),
    [[0, 0], [1, 3], [4, 4], [6, 7], [8, 10], [12, 12], [13, 13]],
  );
});

test('readme-test comments: a reason for every skip, and only before sh blocks', (t) => {
  const blocks = readmeBlocks(['<!-- readme-test: skip, needs a person -->', '```sh', 'claude mcp add x', '```', '', '```text', 'npm run admin -- [--plan]', '```', '```sh', 'echo hi', '```'].join('\n'));
  t.deepEqual(
    blocks.map((block) => [block.number, block.line, block.marker?.kind ?? null]),
    [[1, 2, 'skip'], [2, 9, null]],
  );
  t.throws(() => readmeBlocks(['<!-- readme-test: skip -->', '```sh', 'npm start', '```'].join('\n')), { message: /say why/ });
  t.throws(() => readmeBlocks(['<!-- readme-test: skip, a template -->', '```json', '{}', '```'].join('\n')), { message: /not sh/ });
  t.throws(() => readmeBlocks(['<!-- readme-test: ignore this -->', '```sh', 'ls', '```'].join('\n')), { message: /cannot read/ });
});
