// SPDX-License-Identifier: Apache-2.0
// What the extension hands the language client: the server command, the files, the options.
// No `vscode` import here, so the test harness can use it on its own.
import * as fs from 'fs';
import * as path from 'path';
import type { Executable } from 'vscode-languageclient/node';

export const DEFAULT_BINARY = 'sparkcheck';

// Language ids of the file kinds `sparkcheck lint` reads (docs/editors.md).
export const LANGUAGES = [
  'dockerfile', 'python', 'shellscript', 'markdown', 'yaml', 'toml', 'json', 'jsonc',
  'makefile', 'cmake', 'pip-requirements',
];

// Files VS Code opens as plain text (no language of their own without other extensions).
export const PATTERNS = [
  '**/*{requirements,Requirements,REQUIREMENTS,constraints,Constraints}*.txt',
  '**/requirements/**/*.txt',
  '**/overrides*.txt',
  '**/*.{lock,in,slurm,sbatch}',
  '**/*{Dockerfile,dockerfile,Containerfile,containerfile}*',
  '**/CMakeLists.txt',
  '**/*.{env,conf,vars}',
  '**/{.env,.envrc,.env.*}',
];

export interface DocumentFilter {
  scheme: string;
  language?: string;
  pattern?: string;
}

export function documentSelector(): DocumentFilter[] {
  const byLanguage = LANGUAGES.map((language) => ({ scheme: 'file', language }));
  const byPattern = PATTERNS.map((pattern) => ({ scheme: 'file', pattern }));
  return [...byLanguage, ...byPattern];
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

// The binary named by the `sparkcheck.path` setting: a path (relative ones from the workspace
// folder) or a name looked up on PATH. Undefined when there is no such executable.
export function findBinary(setting: string | undefined, folder: string | undefined,
                           env: NodeJS.ProcessEnv = process.env): string | undefined {
  let name = (setting ?? '').trim() || DEFAULT_BINARY;
  if (name.startsWith('~/') && env.HOME) name = path.join(env.HOME, name.slice(2));
  if (name.includes('/')) {
    const file = path.resolve(folder ?? process.cwd(), name);
    return isExecutable(file) ? file : undefined;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir || '.', name);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

export function missingBinaryMessage(setting: string | undefined): string {
  const name = (setting ?? '').trim() || DEFAULT_BINARY;
  const where = name.includes('/') ? 'no executable file there' : 'not found on PATH';
  return `sparkcheck: cannot start the language server: "${name}" (setting sparkcheck.path) is ` +
    `${where}. Build sparkcheck from its repository (cmake -S . -B build && cmake --build build), ` +
    'then put build/sparkcheck on PATH or set sparkcheck.path to its full path.';
}

export function serverOptions(binary: string): Executable {
  return { command: binary, args: ['server'] };
}

export function initializationOptions(debounceMs: number | undefined): { debounceMs?: number } {
  return typeof debounceMs === 'number' ? { debounceMs } : {};
}
