// Farkle Table's Firefox driver (tests/support/firefox_support.py runs it): Debian's firefox-esr
// launched by Puppeteer-core over WebDriver BiDi (no geckodriver, no downloaded browser).
//
// One JSON object a line on stdin, one answer a line on stdout:
//   {"id": 1, "cmd": "open", "page": "p1", "url": "http://..."}
//   -> {"id": 1, "ok": true, "result": ...}   or   {"id": 1, "ok": false, "error": "..."}
// Commands: launch, new_page, close_page, open, reload, semantics, click, type, choose_file,
// init_script, wait_text, texts, eval, wait_function, console, requests, close. Every wait takes "timeout_ms".
// Flutter paints on a canvas: what can be found and pressed is its accessibility tree
// (flt-semantics-host), switched on by clicking flt-semantics-placeholder ("semantics").
import readline from "node:readline";
import puppeteer from "puppeteer-core";

const DEFAULT_TIMEOUT_MS = 30_000;
let browser = null;
const pages = new Map(); // id -> {page, console: [], requests: []}
let nextPage = 1;
const ownContexts = new Set(); // browser contexts made by new_page: closed with their last tab

const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// In the page: the elements a screen reader calls a button (or a text field) named `name`.
// Flutter names a node by its aria-label or by its text; "exact" is Playwright's: the whole
// name, case and all (whitespace squeezed), else a case-insensitive part of it.
const FIND = `(kind, name, exact) => {
  const squeeze = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const want = squeeze(name);
  const matches = (label) => {
    label = squeeze(label);
    return exact ? label === want : label.toLowerCase().includes(want.toLowerCase());
  };
  const roots = [...document.querySelectorAll("flt-semantics-host")];
  const found = [];
  for (const root of roots) {
    const selector = kind === "button"
      ? "[role=button], button"
      : "input, textarea, [role=textbox]";
    for (const el of root.querySelectorAll(selector)) {
      const labels = [el.getAttribute("aria-label"), el.textContent];
      if (kind !== "button") {
        const host = el.closest("flt-semantics");
        if (host) labels.push(host.getAttribute("aria-label"), host.textContent);
      }
      const r = el.getBoundingClientRect();
      const shown = r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
      if (shown && labels.some((l) => l && matches(l))) found.push(el);
    }
  }
  return found;
}`;

// In the page: is `text` shown (part of an element's text, or the whole of it if exact)?
const HAS_TEXT = `(text, exact) => {
  const squeeze = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const want = squeeze(text);
  const host = document.querySelector("flt-semantics-host");
  if (!host) return false;
  for (const el of [host, ...host.querySelectorAll("*")]) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own && el.getAttribute("aria-label") === null) continue;
    for (const label of [el.textContent, el.getAttribute("aria-label")]) {
      const t = squeeze(label);
      if (t && (exact ? t === want : t.includes(want))) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) return true;
      }
    }
  }
  return false;
}`;

async function waitFor(page, fnSource, args, timeoutMs, what) {
  const started = Date.now();
  for (;;) {
    try {
      const value = await page.evaluate(`(${fnSource})(...${JSON.stringify(args)})`);
      if (value) return value;
    } catch (err) {
      // a navigation in between destroys the context: try again
      if (!/context|navigat|destroyed|discarded/i.test(String(err))) throw err;
    }
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

function entry(msg) {
  const e = pages.get(msg.page);
  if (!e) throw new Error(`no page ${JSON.stringify(msg.page)}`);
  return e;
}

async function enableSemantics(page, timeoutMs) {
  // Flutter only builds its accessibility DOM once asked. The placeholder is styled
  // pointer-events:none-ish and off-screen: a trusted click at its place does not reach
  // it, so the click is dispatched in the page (as Playwright's dispatch_event does).
  await waitFor(page, `() => {
    const p = document.querySelector("flt-semantics-placeholder");
    if (p) p.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, composed: true}));
    const host = document.querySelector("flt-semantics-host");
    return !!host && host.innerText.trim().length > 0;
  }`, [], timeoutMs, "Flutter's accessibility tree");
}

// Wait until every node of the accessibility tree keeps its place for two looks 25 ms apart
// (as the Chromium journeys' FlutterPage.settle does): after a throw the screen is laid out
// again, and a tap aimed at a button's old place lands on whatever moved there.
async function settle(page, timeoutMs) {
  await page.evaluate(`delete window.__farkleSettle`);
  const started = Date.now();
  for (;;) {
    const held = await page.evaluate(`(() => {
      const places = Array.from(document.querySelectorAll('flt-semantics'), node => {
        const r = node.getBoundingClientRect();
        return r.x + ',' + r.y + ',' + r.width + ',' + r.height;
      }).join(';');
      const seen = window.__farkleSettle;
      window.__farkleSettle = seen && seen.places === places ? {places, frames: seen.frames + 1} : {places, frames: 0};
      return window.__farkleSettle.frames >= 2;
    })()`).catch(() => false);
    if (held) return;
    if (Date.now() - started > timeoutMs) throw new Error(`the screen did not settle within ${timeoutMs} ms`);
    await sleep(25);
  }
}

// Press a button once the screen has settled: scrolled into view, then a real mouse click at its centre when that point
// hits the button (or something inside it); otherwise (pointer-events:none, covered by the
// glass pane) the click is dispatched on the element in the page, where Flutter listens.
async function clickButton(page, name, exact, timeoutMs) {
  await waitFor(page, `(kind, name, exact) => (${FIND})(kind, name, exact).length > 0`,
    ["button", name, exact], timeoutMs, `button ${JSON.stringify(name)}`);
  await settle(page, timeoutMs);
  const how = await page.evaluate(`((kind, name, exact) => {
    const el = (${FIND})(kind, name, exact)[0];
    if (!el) return "gone";
    el.scrollIntoView({block: "center", inline: "center"});
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) return JSON.stringify({x, y});
    for (const type of ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]) {
      const Ctor = type.startsWith("pointer") ? PointerEvent : MouseEvent;
      el.dispatchEvent(new Ctor(type, {bubbles: true, cancelable: true, composed: true,
        clientX: x, clientY: y, button: 0, buttons: type.endsWith("down") ? 1 : 0,
        pointerType: "mouse", isPrimary: true}));
    }
    return "dispatched";
  })(...${JSON.stringify(["button", name, exact])})`);
  if (how === "gone") throw new Error(`button ${JSON.stringify(name)} went away before the click`);
  if (how !== "dispatched") {
    const {x, y} = JSON.parse(how);
    await page.mouse.click(x, y);
    return "mouse";
  }
  return how;
}

const FOCUSED = `(name) => { const e = document.activeElement;
  if (!e || !["INPUT", "TEXTAREA"].includes(e.tagName)) return false;
  const label = e.getAttribute("aria-label"); return !label || label.startsWith(name); }`;

// The field labelled name (wherever the focus went since) holds text; only text if exact (typed to
// replace: a select-all that came before Flutter listened selected nothing, and "1000" typed over
// "10000" read "100001000").
const LANDED = `(name, text, exact) => { const squash = (s) => (s || "").replace(/\\s+/g, "");
  return Array.from(document.querySelectorAll("input, textarea")).some(
    (e) => (e.getAttribute("aria-label") || "").startsWith(name)
      && (exact ? squash(e.value) === squash(text) : (e.value || "").includes(text))); }`;

// Type the way tests/support/browser_support.py does: click the field, wait for its input to have
// the focus, clear it, insert the text, and see it in the input; typed again (up to three
// times) when a field focused a moment before Flutter listened drops it.
async function typeInto(page, name, text, replace, timeoutMs) {
  const last = text.trim() ? text.split("\n").at(-1) : text;
  const wanted = replace ? [name, text, true] : [name, last, false];
  for (let attempt = 0; attempt < 3; attempt++) {
    const focused = await page.evaluate(`(${FOCUSED})(${JSON.stringify(name)})`);
    if (attempt === 0 || !focused) {
      await waitFor(page, `(kind, name, exact) => (${FIND})(kind, name, exact).length > 0`,
        ["textbox", name, true], timeoutMs, `text field ${JSON.stringify(name)}`);
      const how = await page.evaluate(`((kind, name, exact) => {
        const el = (${FIND})(kind, name, exact)[0];
        el.scrollIntoView({block: "center"});
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const hit = document.elementFromPoint(x, y);
        if (hit && (hit === el || el.contains(hit))) return JSON.stringify({x, y});
        el.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, clientX: x, clientY: y}));
        el.focus();
        return "dispatched";
      })(...${JSON.stringify(["textbox", name, true])})`);
      if (how !== "dispatched") {
        const {x, y} = JSON.parse(how);
        await page.mouse.click(x, y);
      }
    }
    await waitFor(page, FOCUSED, [name], timeoutMs, `the focus in ${JSON.stringify(name)}`);
    if (replace) {
      await page.keyboard.down("Control");
      await page.keyboard.press("a");
      await page.keyboard.up("Control");
      await page.keyboard.press("Delete");
    }
    await page.keyboard.type(text);
    try {
      await waitFor(page, LANDED, wanted, attempt < 2 ? 5_000 : timeoutMs,
        `${JSON.stringify(text)} in ${JSON.stringify(name)}`);
    } catch (err) {
      if (attempt === 2) throw err;
      continue;
    }
    // Still there once the screen settled: a field Flutter had not yet taken over shows the
    // text for a frame, then puts back its own (empty) value (as browser_support.py's type_into).
    await settle(page, timeoutMs);
    if (attempt === 2 || await page.evaluate(`(${LANDED})(...${JSON.stringify(wanted)})`)) return attempt + 1;
  }
}

async function newPage(msg) {
  // a new browser context (own storage, caches, service workers), another tab's, or the default one
  const context = msg.same_context_as ? entry({page: msg.same_context_as}).context
    : msg.isolated ? await browser.createBrowserContext() : browser.defaultBrowserContext();
  const page = await context.newPage();
  await page.setViewport({width: msg.width || 390, height: msg.height || 844});
  page.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
  const id = `p${nextPage++}`;
  if (msg.isolated && !msg.same_context_as) ownContexts.add(context);
  const e = {page, context, console: [], requests: []};
  page.on("console", (m) => e.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (err) => e.console.push(`pageerror: ${err && err.message ? err.message : err}`));
  page.on("request", (r) => e.requests.push(r.url()));
  pages.set(id, e);
  return id;
}

const handlers = {
  async launch(msg) {
    browser = await puppeteer.launch({
      browser: "firefox",
      executablePath: msg.executablePath || "/usr/bin/firefox-esr",
      protocol: "webDriverBiDi",
      headless: true,
      userDataDir: msg.userDataDir || undefined,
      extraPrefsFirefox: msg.prefs || {},
      args: msg.args || [],
      protocolTimeout: 180_000,
    });
    return {version: await browser.version()};
  },
  new_page: newPage,
  async close_page(msg) {
    const e = entry(msg);
    pages.delete(msg.page);
    await e.page.close();
    const shared = [...pages.values()].some((other) => other.context === e.context);
    if (ownContexts.has(e.context) && !shared) {
      ownContexts.delete(e.context);
      await e.context.close();
    }
    return true;
  },
  async open(msg) {
    const {page} = entry(msg);
    // Like Playwright's wait_until="commit": the app's own waits say when it is up.
    await page.goto(msg.url, {waitUntil: "domcontentloaded", timeout: msg.timeout_ms || 60_000});
    return page.url();
  },
  async reload(msg) {
    const {page} = entry(msg);
    await page.reload({waitUntil: "domcontentloaded", timeout: msg.timeout_ms || 60_000});
    return page.url();
  },
  async semantics(msg) {
    await enableSemantics(entry(msg).page, msg.timeout_ms || 60_000);
    return true;
  },
  async click(msg) {
    return clickButton(entry(msg).page, msg.name, msg.exact !== false, msg.timeout_ms || DEFAULT_TIMEOUT_MS);
  },
  async type(msg) {
    return typeInto(entry(msg).page, msg.name, msg.text, msg.replace !== false, msg.timeout_ms || DEFAULT_TIMEOUT_MS);
  },
  async choose_file(msg) {
    // Press the button that opens a file picker, and pick msg.path in it (Puppeteer's
    // FileChooser: WebDriver BiDi's input.fileDialogOpened and input.setFiles).
    const {page} = entry(msg);
    const timeout = msg.timeout_ms || DEFAULT_TIMEOUT_MS;
    const [chooser] = await Promise.all([
      page.waitForFileChooser({timeout}),
      clickButton(page, msg.name, msg.exact !== false, timeout),
    ]);
    await chooser.accept([msg.path]);
    return true;
  },
  async init_script(msg) {
    // JavaScript run in the page (not its workers) before the page's own, at every load.
    await entry(msg).page.evaluateOnNewDocument(msg.source);
    return true;
  },
  async wait_text(msg) {
    await waitFor(entry(msg).page, HAS_TEXT, [msg.text, !!msg.exact], msg.timeout_ms || DEFAULT_TIMEOUT_MS,
      `text ${JSON.stringify(msg.text)}`);
    return true;
  },
  async buttons(msg) {
    return entry(msg).page.evaluate(`(${FIND})("button", "", false).map((el) =>
      (el.getAttribute("aria-label") || el.textContent || "").replace(/\\s+/g, " ").trim())`);
  },
  async texts(msg) {
    const text = await entry(msg).page.evaluate(`(() => {
      const host = document.querySelector("flt-semantics-host"); return host ? host.innerText : ""; })()`);
    return text.split("\n").map((l) => l.trim()).filter((l) => l);
  },
  async eval(msg) {
    // an expression (may be a promise); its JSON value comes back
    return entry(msg).page.evaluate(`(async () => (${msg.expr}))()`);
  },
  async wait_function(msg) {
    return waitFor(entry(msg).page, `async () => (${msg.expr})`, [], msg.timeout_ms || DEFAULT_TIMEOUT_MS, msg.expr);
  },
  async console(msg) {
    return entry(msg).console;
  },
  async requests(msg) {
    return entry(msg).requests;
  },
  async close() {
    if (browser) await browser.close();
    browser = null;
    return true;
  },
};

const rl = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
let chain = Promise.resolve();
rl.on("line", (line) => {
  if (!line.trim()) return;
  chain = chain.then(async () => {
    let msg;
    try {
      msg = JSON.parse(line);
      const handler = handlers[msg.cmd];
      if (!handler) throw new Error(`unknown command ${JSON.stringify(msg.cmd)}`);
      const result = await handler(msg);
      out({id: msg.id, ok: true, result: result === undefined ? null : result});
      if (msg.cmd === "close") process.exit(0);
    } catch (err) {
      out({id: msg && msg.id, ok: false, error: String(err && err.stack ? err.stack : err)});
    }
  });
});
rl.on("close", async () => {
  await chain;
  if (browser) await browser.close().catch(() => {});
  process.exit(0);
});
