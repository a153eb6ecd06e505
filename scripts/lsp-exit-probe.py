#!/usr/bin/env python3
"""How long `agentws serve` takes to answer `shutdown` and to end after `exit` while requests are
still pending: initialize on PROJECT, send 8 agentws/previewPrompt requests without waiting, then
(mode `shutdown`) shutdown + exit, or (mode `exit`) exit alone. Prints the times and exit code.

    scripts/lsp-exit-probe.py target/release/agentws /abs/path/to/project shutdown
"""
import json, subprocess, sys, threading, time

binary, root, mode = sys.argv[1], sys.argv[2], sys.argv[3]
p = subprocess.Popen([binary, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.DEVNULL)
msgs = []

def send(obj):
    body = json.dumps(obj).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    p.stdin.flush()

def reader():
    while True:
        line = p.stdout.readline()
        if not line:
            return
        length = None
        while line.strip():
            if line.lower().startswith(b"content-length"):
                length = int(line.split(b":")[1])
            line = p.stdout.readline()
        msgs.append(json.loads(p.stdout.read(length)))

def answered(i):
    return any(m.get("id") == i and "method" not in m for m in msgs)

threading.Thread(target=reader, daemon=True).start()
uri = "file://" + root
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "processId": None, "rootUri": None, "capabilities": {},
    "workspaceFolders": [{"uri": uri, "name": "p"}]}})
while not answered(1):
    time.sleep(0.01)
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
for i in range(8):
    send({"jsonrpc": "2.0", "id": 100 + i, "method": "agentws/previewPrompt", "params": {
        "uri": uri + "/.agentscope/workspace/AGENTS.md",
        "context": {"userId": "u", "sessionId": "s"}}})
start = time.time()
if mode == "shutdown":
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    while not answered(2) and time.time() - start < 120:
        time.sleep(0.01)
    print("shutdown answered after %.2f s" % (time.time() - start))
exit_sent = time.time()
send({"jsonrpc": "2.0", "method": "exit"})
try:
    code = p.wait(timeout=120)
except subprocess.TimeoutExpired:
    p.kill()
    code = "killed after 120 s"
print("exit code %s, %.2f s after exit was sent" % (code, time.time() - exit_sent))
print("previews answered before the end: %d of 8" % sum(answered(100 + i) for i in range(8)))
