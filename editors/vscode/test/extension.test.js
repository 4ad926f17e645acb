// SPDX-License-Identifier: Apache-2.0
// Runs the compiled extension (out/) with a fake `vscode` module (fake-vscode.js) and the real
// language server: activate() starts `sparkcheck server` through vscode-languageclient, and the
// Dockerfile's finding arrives as a VS Code diagnostic.
// usage: SPARKCHECK=path/to/sparkcheck node --test test/   (after `npx tsc -p .`)
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');

const fake = require('./fake-vscode');
const realLoad = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? fake : realLoad.call(this, request, ...rest);
};

const ROOT = path.resolve(__dirname, '..');
const SOURCE_DIR = path.resolve(ROOT, '../..');
const manifest = require('../package.json');
const extension = require('../out/extension');
const server = require('../out/server');

const SPARKCHECK = process.env.SPARKCHECK;
if (!SPARKCHECK) throw new Error('set SPARKCHECK to the sparkcheck binary under test');
const WAIT_MS = Number(process.env.SC_VSCODE_WAIT_MS || 30000);

for (const [key, spec] of Object.entries(manifest.contributes.configuration.properties)) {
  fake.state.defaults[key] = spec.default;
}

// The fixture's `# expect: G1:LEVEL@colN` line names the finding on the line after it.
const FIXTURE = path.join(SOURCE_DIR, 'fixtures/G1/ngc-24-12.Dockerfile');
const fixtureText = fs.readFileSync(FIXTURE, 'utf8');
const fixtureLines = fixtureText.split('\n');
const expectAt = fixtureLines.findIndex((l) => /^# expect: G1\b/.test(l));
const expected = {
  line: expectAt + 1,
  character: Number(/@col(\d+)/.exec(fixtureLines[expectAt])[1]) - 1,
};

// A workspace whose Dockerfile on disk has two more lines than the editor's buffer, so the
// diagnostic's line tells whether the server saw the buffer (didOpen) or only the disk.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-vscode-'));
const workspace = path.join(tmp, 'project');
const dockerfile = path.join(workspace, 'Dockerfile');
fs.mkdirSync(path.join(workspace, '.git'), { recursive: true });
fs.writeFileSync(dockerfile, '\n\n' + fixtureText);
const bin = path.join(tmp, 'bin');
fs.mkdirSync(bin);
fs.symlinkSync(path.resolve(SPARKCHECK), path.join(bin, 'sparkcheck'));

const context = { subscriptions: [] };

function codeOf(diagnostic) {
  return typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
}

function brief(d) {
  return `${codeOf(d)}@${d.range.start.line}:${d.range.start.character}`;
}

// Resolves with the first diagnostic of FILE that ACCEPT takes, from the collection's set() calls.
function diagnosticFor(file, accept) {
  return new Promise((resolve, reject) => {
    const seen = [];
    const onSet = (uri, diagnostics) => {
      if (uri.fsPath !== file) return;
      seen.push(diagnostics.map(brief).join(' ') || '(none)');
      const found = diagnostics.find(accept);
      if (found) { off(); resolve(found); }
    };
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching diagnostic for ${file} in ${WAIT_MS} ms; published: ` +
        `${seen.join(' | ') || 'nothing'}\nerrors: ${fake.state.errors.join('\n')}\n` +
        `log:\n${fake.state.logs.join('\n')}`));
    }, WAIT_MS);
    const off = () => { clearTimeout(timer); fake.state.diagnostics.off('set', onSet); };
    fake.state.diagnostics.on('set', onSet);
  });
}

const isExpectedG1 = (d) => codeOf(d) === 'G1' && d.range.start.line === expected.line;

test.after(async () => {
  await extension.deactivate();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('activate() starts `sparkcheck server` from PATH and shows the open Dockerfile\'s G1 finding', async () => {
  process.env.PATH = bin + path.delimiter + process.env.PATH;
  fake.state.folders = [workspace];
  fake.state.documents = [fake.textDocument(dockerfile, 'dockerfile', fixtureText)];
  const found = diagnosticFor(dockerfile, isExpectedG1);
  await extension.activate(context);
  const diagnostic = await found;
  assert.deepStrictEqual(fake.state.errors, []);
  assert.strictEqual(diagnostic.range.start.character, expected.character);
  assert.strictEqual(diagnostic.severity, fake.DiagnosticSeverity.Error);
  assert.match(diagnostic.message, /\S/);
  const client = extension.currentClient();
  assert.ok(client && client.isRunning(), 'the language client is running');
  assert.ok(client.initializeResult.capabilities.hoverProvider, 'the server answered initialize');
  assert.deepStrictEqual(client.clientOptions.initializationOptions, { debounceMs: 150 });
});

test('"sparkcheck: Restart server" starts a new server that publishes again', async () => {
  const before = extension.currentClient();
  const restart = fake.state.commands.get('sparkcheck.restartServer');
  assert.ok(restart, 'the restart command is registered');
  const found = diagnosticFor(dockerfile, isExpectedG1);
  await restart();
  await found;
  const after = extension.currentClient();
  assert.ok(after && after !== before && after.isRunning());
  assert.ok(!before.isRunning(), 'the old server was stopped');
});

async function until(condition, what) {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > WAIT_MS) throw new Error('timed out waiting for ' + what);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a missing binary is reported, naming the setting and how to build it', async () => {
  const restart = fake.state.commands.get('sparkcheck.restartServer');
  for (const [setting, why] of [['/nonexistent/sparkcheck', 'no executable file there'],
                                 ['sparkcheck-not-installed', 'not found on PATH']]) {
    fake.state.errors = [];
    if (setting.includes('/')) {
      // changing sparkcheck.path restarts the server by itself
      const before = extension.currentClient();
      fake.changeSettings({ 'sparkcheck.path': setting });
      await until(() => fake.state.errors.length > 0, 'the error message');
      assert.ok(before && !before.isRunning(), 'the old server was stopped');
    } else {
      fake.state.settings['sparkcheck.path'] = setting;
      await restart();
    }
    assert.strictEqual(extension.currentClient(), undefined);
    assert.strictEqual(fake.state.errors.length, 1, fake.state.errors.join("\n"));
    const message = fake.state.errors[0];
    for (const part of [setting, why, 'sparkcheck.path', 'cmake --build build']) {
      assert.ok(message.includes(part), `"${part}" in: ${message}`);
    }
  }
  delete fake.state.settings['sparkcheck.path'];
});

test('sparkcheck.path: a path, a path relative to the workspace folder, or a name on PATH', () => {
  const env = { PATH: bin, HOME: tmp };
  const target = path.join(bin, 'sparkcheck');
  assert.strictEqual(server.findBinary(undefined, workspace, env), target);
  assert.strictEqual(server.findBinary('  ', workspace, env), target);
  assert.strictEqual(server.findBinary(target, undefined, env), target);
  assert.strictEqual(server.findBinary('../bin/sparkcheck', workspace, env), target);
  assert.strictEqual(server.findBinary('~/bin/sparkcheck', undefined, env), target);
  assert.strictEqual(server.findBinary('sparkcheck', workspace, { PATH: workspace }), undefined);
  assert.strictEqual(server.findBinary(dockerfile, workspace, env), undefined, 'not executable');
  assert.deepStrictEqual(server.serverOptions(target), { command: target, args: ['server'] });
});

test('the document selector takes the file kinds sparkcheck reads, as VS Code names them', () => {
  const selector = server.documentSelector();
  const matches = (name, languageId) =>
    fake.languages.match(selector, { uri: fake.Uri.file(path.join(workspace, name)), languageId }) > 0;
  for (const [name, languageId] of [
    ['Dockerfile', 'dockerfile'], ['train.py', 'python'], ['run.sh', 'shellscript'],
    ['README.md', 'markdown'], ['compose.yaml', 'yaml'], ['pyproject.toml', 'toml'],
    ['config.json', 'json'], ['Makefile', 'makefile'], ['CMakeLists.txt', 'cmake'],
    ['requirements.txt', 'plaintext'], ['requirements-cu124.txt', 'plaintext'],
    ['docker/Dockerfile.cuda', 'plaintext'], ['Containerfile', 'plaintext'],
    ['uv.lock', 'plaintext'], ['constraints.txt', 'plaintext'], ['job.slurm', 'plaintext'],
  ]) {
    assert.ok(matches(name, languageId), `${name} (${languageId}) is selected`);
  }
  assert.ok(!matches('notes.txt', 'plaintext'), 'notes.txt is not');
});

test('package.json declares the activation events, command and settings that activate() uses', () => {
  const events = manifest.activationEvents;
  for (const language of server.LANGUAGES) assert.ok(events.includes(`onLanguage:${language}`), language);
  assert.ok(events.includes('workspaceContains:**/.sparkcheck.yaml'));
  assert.ok(events.includes('onNotebook:jupyter-notebook'));
  const declared = manifest.contributes.commands.map((c) => c.command);
  assert.deepStrictEqual([...fake.state.commands.keys()].filter((c) => !declared.includes(c)), []);
  assert.ok(declared.includes('sparkcheck.restartServer'));
  const settings = manifest.contributes.configuration.properties;
  assert.strictEqual(settings['sparkcheck.path'].default, server.DEFAULT_BINARY);
  assert.ok(settings['sparkcheck.trace.server'], 'trace setting (read by vscode-languageclient)');
  assert.strictEqual(settings['sparkcheck.debounceMs'].default, 150);
  assert.ok(fs.existsSync(path.join(ROOT, manifest.main)), manifest.main);
  assert.strictEqual(manifest.license, 'Apache-2.0');
});
