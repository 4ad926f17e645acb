// SPDX-License-Identifier: Apache-2.0
// The sparkcheck extension: runs `sparkcheck server` through vscode-languageclient.
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions } from 'vscode-languageclient/node';
import {
  documentSelector, findBinary, initializationOptions, missingBinaryMessage, serverOptions,
} from './server';

let client: LanguageClient | undefined;

function settings() {
  const config = vscode.workspace.getConfiguration('sparkcheck');
  return {
    path: config.get<string>('path'),
    debounceMs: config.get<number>('debounceMs'),
  };
}

function firstFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

async function reportMissing(setting: string | undefined): Promise<void> {
  const open = 'Open Settings';
  const choice = await vscode.window.showErrorMessage(missingBinaryMessage(setting), open);
  if (choice === open) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'sparkcheck.path');
  }
}

async function start(): Promise<void> {
  const { path, debounceMs } = settings();
  const binary = findBinary(path, firstFolder());
  if (!binary) {
    void reportMissing(path);
    return;
  }
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    initializationOptions: initializationOptions(debounceMs),
    synchronize: { configurationSection: 'sparkcheck' },
  };
  client = new LanguageClient('sparkcheck', 'sparkcheck', serverOptions(binary), clientOptions);
  try {
    await client.start();
  } catch (error) {
    void vscode.window.showErrorMessage(`sparkcheck: the language server (${binary}) failed to start: ${error}`);
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  try {
    await running?.stop();
  } catch {
    // a server that never started or already died has nothing to stop
  }
}

// Restarts run one after the other (a settings change and the command can overlap).
let restarting: Promise<void> = Promise.resolve();

function restart(): Promise<void> {
  restarting = restarting.then(stop).then(start);
  return restarting;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand('sparkcheck.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // after the running client has passed the change on, so it is not stopped mid-send
      if (event.affectsConfiguration('sparkcheck.path')) setTimeout(() => void restart(), 0);
    }),
  );
  await start();
}

export function deactivate(): Promise<void> {
  return stop();
}

// For the test harness: the running client, if any.
export function currentClient(): LanguageClient | undefined {
  return client;
}
