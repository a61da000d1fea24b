// The Meeple extension: `.rules` files get highlighting (the TextMate grammar in syntaxes/) and,
// through `meeple lsp`, diagnostics, hover, go to definition, references, completion, the
// outline and rename.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function start() {
  const config = vscode.workspace.getConfiguration("meeple");
  const command = config.get("path") || "meeple";
  const serverOptions = { command, args: ["lsp"] };
  const clientOptions = {
    documentSelector: [{ language: "meeple" }],
    outputChannelName: "Meeple",
  };
  client = new LanguageClient("meeple", "Meeple", serverOptions, clientOptions);
  return client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `Meeple: cannot start \`${command} lsp\` (${err.message || err}). ` +
        "Set `meeple.path` to the meeple binary."
    );
  });
}

async function stop() {
  if (client) {
    const running = client;
    client = undefined;
    try {
      await running.stop();
    } catch (_) {
      // It never started (no binary): nothing to stop.
    }
  }
}

async function restart() {
  await stop();
  await start();
}

async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("meeple.path")) {
        return restart();
      }
    }),
    vscode.commands.registerCommand("meeple.restartServer", restart)
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
