// An empty ES module: Node's start-up plus its ESM loader, the floor of any ESM CLI.
