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

async function activate(context) {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration("meeple.path")) {
        if (client) {
          await client.stop();
        }
        await start();
      }
    }),
    vscode.commands.registerCommand("meeple.restartServer", async () => {
      if (client) {
        await client.stop();
      }
      await start();
    })
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
