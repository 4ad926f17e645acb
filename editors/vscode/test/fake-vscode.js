// SPDX-License-Identifier: Apache-2.0
// A minimal stand-in for the `vscode` module: enough of the API for the extension's activate()
// and vscode-languageclient's node client to run outside VS Code. It records what the extension
// does (commands, messages, diagnostics) for the tests to check.
'use strict';
const path = require('path');
const { EventEmitter: NodeEmitter } = require('events');

class Disposable {
  constructor(fn) { this.fn = fn; }
  static from(...items) { return new Disposable(() => items.forEach((d) => d && d.dispose && d.dispose())); }
  dispose() { if (this.fn) this.fn(); this.fn = undefined; }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener, thisArg) => {
      const bound = listener.bind(thisArg);
      this.listeners.add(bound);
      return new Disposable(() => this.listeners.delete(bound));
    };
  }
  fire(value) { for (const l of [...this.listeners]) l(value); }
  dispose() { this.listeners.clear(); }
}

class Uri {
  constructor(scheme, fsPath) { this.scheme = scheme; this.fsPath = fsPath; this.path = fsPath; }
  static file(p) { return new Uri('file', path.resolve(p)); }
  static parse(text) {
    const u = new URL(text);
    return u.protocol === 'file:' ? Uri.file(decodeURIComponent(u.pathname)) : new Uri(u.protocol.slice(0, -1), text);
  }
  toString() { return this.scheme === 'file' ? 'file://' + encodeURI(this.fsPath) : this.fsPath; }
  toJSON() { return this.toString(); }
}

class Position {
  constructor(line, character) { this.line = line; this.character = character; }
}

class Range {
  constructor(a, b, c, d) {
    this.start = typeof a === 'number' ? new Position(a, b) : a;
    this.end = typeof a === 'number' ? new Position(c, d) : b;
  }
}

class Location {
  constructor(uri, range) { this.uri = uri; this.range = range; }
}

class Diagnostic {
  constructor(range, message, severity) { this.range = range; this.message = message; this.severity = severity; }
}

class DiagnosticRelatedInformation {
  constructor(location, message) { this.location = location; this.message = message; }
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
    this.emitter = emitter;
  }
  cancel() { this.token.isCancellationRequested = true; this.emitter.fire(); }
  dispose() {}
}

class CancellationError extends Error {}

// What the tests set and read.
const state = {
  settings: {},            // 'sparkcheck.path' -> value
  defaults: {},            // the same, from package.json's contributes.configuration
  folders: [],             // workspace folder paths
  documents: [],           // open text documents
  commands: new Map(),     // id -> handler
  errors: [],              // showErrorMessage texts
  executed: [],            // executeCommand calls
  diagnostics: new NodeEmitter(), // 'set' (uri, diagnostics)
  logs: [],                // output channel lines
};

function textDocument(file, languageId, text = require('fs').readFileSync(file, 'utf8')) {
  return {
    uri: Uri.file(file), fileName: file, languageId, version: 1, isClosed: false, isUntitled: false,
    getText: () => text, lineCount: text.split('\n').length,
  };
}

// A section's keys as one object, as VS Code answers get('sparkcheck').
function sectionObject(prefix) {
  const all = { ...state.defaults, ...state.settings };
  const keys = Object.keys(all).filter((k) => k.startsWith(prefix + '.'));
  if (keys.length === 0) return undefined;
  const result = {};
  for (const k of keys) {
    const parts = k.slice(prefix.length + 1).split('.');
    let at = result;
    for (const part of parts.slice(0, -1)) at = at[part] = at[part] || {};
    at[parts[parts.length - 1]] = all[k];
  }
  return result;
}

function configuration(section) {
  const key = (name) => (section ? section + '.' : '') + name;
  const value = (name) => (key(name) in state.settings ? state.settings[key(name)]
    : key(name) in state.defaults ? state.defaults[key(name)] : sectionObject(key(name)));
  return {
    get: (name, fallback) => (value(name) === undefined ? fallback : value(name)),
    has: (name) => value(name) !== undefined,
    inspect: () => undefined,
    update: async () => {},
  };
}

function outputChannel(name) {
  const log = (line) => state.logs.push(`[${name}] ${line}`);
  return {
    name, logLevel: 2, onDidChangeLogLevel: new EventEmitter().event,
    append: log, appendLine: log, replace: log, clear() {}, show() {}, hide() {}, dispose() {},
    trace: log, debug: log, info: log, warn: log, error: log,
  };
}

function diagnosticCollection(name) {
  const entries = new Map();
  return {
    name,
    set(uri, diagnostics) { entries.set(uri.toString(), diagnostics); state.diagnostics.emit('set', uri, diagnostics || []); },
    delete(uri) { entries.delete(uri.toString()); },
    get: (uri) => entries.get(uri.toString()),
    has: (uri) => entries.has(uri.toString()),
    forEach(fn) { for (const [k, v] of entries) fn(Uri.parse(k), v, this); },
    clear() { entries.clear(); },
    dispose() { entries.clear(); },
  };
}

// A document filter matches on scheme, language and a '**/'-prefixed file name pattern.
function globToRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith('**/', i)) { re += '(?:.*/)?'; i += 2; }
    else if (c === '*') re += '[^/]*';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',') re += '|';
    else re += c.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp('^' + re + '$');
}

function matchFilter(filter, doc) {
  if (typeof filter === 'string') return filter === doc.languageId ? 10 : 0;
  if (filter.scheme && filter.scheme !== doc.uri.scheme) return 0;
  if (filter.language && filter.language !== doc.languageId) return 0;
  if (filter.pattern && !globToRegExp(filter.pattern).test(doc.uri.fsPath)) return 0;
  return 10;
}

function match(selector, doc) {
  const filters = Array.isArray(selector) ? selector : [selector];
  return Math.max(0, ...filters.map((f) => matchFilter(f, doc)));
}

const noEvent = () => new Disposable();
// Namespaces answer any other register*/on* name with a no-op, so features the server does not
// use can still set themselves up.
function namespace(known) {
  return new Proxy(known, {
    get(target, name) {
      if (name in target) return target[name];
      if (typeof name === 'string' && /^(register|on)/.test(name)) return noEvent;
      return undefined;
    },
  });
}

const configurationChanged = new EventEmitter();

// Changes settings as the user would, firing onDidChangeConfiguration.
function changeSettings(values) {
  Object.assign(state.settings, values);
  const changed = Object.keys(values);
  configurationChanged.fire({
    affectsConfiguration: (section) => changed.some((k) => k === section || k.startsWith(section + '.')),
  });
}

const workspace = namespace({
  onDidChangeConfiguration: configurationChanged.event,
  get workspaceFolders() {
    return state.folders.map((f, index) => ({ uri: Uri.file(f), name: path.basename(f), index }));
  },
  get textDocuments() { return state.documents; },
  notebookDocuments: [],
  getConfiguration: configuration,
  getWorkspaceFolder: (uri) => workspace.workspaceFolders.find((f) => uri.fsPath.startsWith(f.uri.fsPath + '/')),
  createFileSystemWatcher: () => ({
    onDidCreate: noEvent, onDidChange: noEvent, onDidDelete: noEvent, dispose() {},
  }),
  applyEdit: async () => true,
});

const window = namespace({
  activeTextEditor: undefined,
  visibleTextEditors: [],
  tabGroups: { all: [], onDidChangeTabs: noEvent },
  createOutputChannel: outputChannel,
  showErrorMessage: async (message) => { state.errors.push(message); return undefined; },
  showWarningMessage: async (message) => { state.logs.push('warning: ' + message); return undefined; },
  showInformationMessage: async () => undefined,
});

const languages = namespace({
  match,
  createDiagnosticCollection: diagnosticCollection,
});

const commands = namespace({
  registerCommand(id, handler) {
    state.commands.set(id, handler);
    return new Disposable(() => state.commands.delete(id));
  },
  executeCommand: async (id, ...args) => {
    state.executed.push([id, ...args]);
    if (state.commands.has(id)) return state.commands.get(id)(...args);
    return undefined;
  },
});

class CodeActionKind {
  constructor(value) { this.value = value; }
  append(part) { return new CodeActionKind(this.value ? this.value + '.' + part : part); }
  contains(other) { return other.value === this.value || other.value.startsWith(this.value + '.'); }
  intersects(other) { return this.contains(other) || other.contains(this); }
}
for (const [name, value] of Object.entries({
  Empty: '', QuickFix: 'quickfix', Refactor: 'refactor', RefactorExtract: 'refactor.extract',
  RefactorInline: 'refactor.inline', RefactorMove: 'refactor.move', RefactorRewrite: 'refactor.rewrite',
  Source: 'source', SourceOrganizeImports: 'source.organizeImports', SourceFixAll: 'source.fixAll',
  Notebook: 'notebook',
})) CodeActionKind[name] = new CodeActionKind(value);

// Classes the client only extends or creates for features this server does not offer.
function plainClass(name) {
  return { [name]: class { constructor(...args) { this.args = args; } } }[name];
}
const plainClasses = Object.fromEntries([
  'CallHierarchyItem', 'CodeAction', 'CodeLens', 'CompletionItem', 'DocumentLink', 'InlayHint',
  'SymbolInformation', 'TypeHierarchyItem', 'MarkdownString', 'Hover', 'TabInputText',
  'TabInputTextDiff', 'TabInputCustom', 'TabInputNotebook',
].map((name) => [name, plainClass(name)]));

module.exports = {
  state, textDocument, changeSettings, ...plainClasses, CodeActionKind,
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  version: '1.91.0',
  env: { language: 'en', appName: 'fake-vscode', machineId: 'test', openExternal: async () => true },
  Disposable, EventEmitter, Uri, Position, Range, Location, Diagnostic, DiagnosticRelatedInformation,
  CancellationTokenSource, CancellationError,
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
  LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
  workspace, window, languages, commands,
};
