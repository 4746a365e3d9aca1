// Farkle Table (build/templates/python-early.js, added by build/build_pwa.py).
//
// Python first: the Python worker starts as soon as the page loads instead of once Flutter
// is up and calls jsConnect(), and Flutter is started when Pyodide itself is loaded (or the
// worker reports anything, or after START_FLUTTER_AFTER_MS). Booting both at once made them
// fight for the CPU, and Flet's animated "Working..." screen cost more CPU than it showed;
// the page's own splash stays up meanwhile. Flutter's boot then overlaps the app's imports.
// When Python starts from its memory snapshot (python-snapshot.js), which takes a fraction
// of that, the worker says so at once ("snapshot-found") and Flutter starts alongside.
// A snapshot is made only once the app has sent its first page, so that making it never
// slows the start it is for.
//
// Dart connects with args {}; jsConnect() adopts this worker when it asks for exactly that
// and replays whatever the worker already posted. Any other request gets a new worker.
const fletEarlyWorker = (() => {
    const START_FLUTTER_AFTER_MS = 10000;
    const MAKE_SNAPSHOT_AFTER_FIRST_PAGE_MS = 2000;
    let startFlutter = null, flutterStarted = false;
    const flutterGo = () => {
        if (flutterStarted) return;
        flutterStarted = true;
        if (startFlutter) startFlutter();
    };
    globalThis.fletStartFlutter = (start) => {
        startFlutter = start;
        if (flutterStarted || !flet.pyodide) { flutterStarted = true; start(); }
    };
    if (!flet.pyodide) return null;
    setTimeout(flutterGo, START_FLUTTER_AFTER_MS);

    const base = flet.entrypointBaseUrl.endsWith("/") ?
        flet.entrypointBaseUrl.slice(0, -1) : flet.entrypointBaseUrl;
    let worker = new Worker(base + "/python-worker.js", { type: "module" });
    const queue = [];
    let adopted = false;
    // The app's first page: the first message in Flet's protocol (bytes) the worker posts.
    let firstPageSent = false, onFirstPage = null;
    // A listener, not onmessage: it stays ahead of the handler Flet sets once it adopts the
    // worker, and keeps this file's own messages away from Flet (and Dart) even then.
    worker.addEventListener("message", (event) => {
        if (event.data && event.data.fletEarly) {
            event.stopImmediatePropagation();
            if (event.data.fletEarly === "pyodide-loaded") {
                globalThis.fletPythonStart = event.data;
                if (event.data.snapshot === false) makeSnapshotLater();
            }
        } else {
            if (!adopted) queue.push(event);
            if (!firstPageSent && event.data instanceof Uint8Array) {
                firstPageSent = true;
                if (onFirstPage) onFirstPage();
            }
        }
        flutterGo();
    });
    worker.onerror = flutterGo;
    worker.postMessage({
        pyodideUrl: flet.pyodideUrl || "pyodide/pyodide.mjs",
        args: {},
        documentUrl: document.URL,
        appPackageUrl: flet.appPackageUrl,
        micropipIncludePre: flet.micropipIncludePre,
        pythonModuleName: flet.pythonModuleName,
        fletEarly: true
    });
    // Python started without a memory snapshot (first visit, new build, or the stored one
    // failed): make one in a second worker once the app has sent its first page
    // (python-snapshot.js), so the next start skips Pyodide's own start-up and the app's
    // imports.
    // globalThis.fletSnapshotState: "waiting", "making", then "saved" or "failed".
    function makeSnapshotLater() {
        if (globalThis.fletSnapshotState) return;
        globalThis.fletSnapshotState = "waiting";
        let started = false;
        // Nothing the person can act on: the next start is a normal one.
        const notKept = (err, detail) => {
            console.warn("Python snapshot: this browser did not keep it, so Python starts "
                         + "the usual way next time: " + err);
            globalThis.fletSnapshotState = "failed";
            globalThis.fletSnapshotDetail = { ...detail, error: String(err) };
        };
        const make = () => {
            if (started) return;
            started = true;
            globalThis.fletSnapshotState = "making";
            // A browser that stores nothing for this site is not made to make it (some 10 s
            // of a phone's CPU) at every start.
            canStore().then(() => startMaker(), (err) => notKept(err, {}));
        };
        const startMaker = () => {
            const maker = new Worker(base + "/python-worker.js", { type: "module" });
            const done = (state, detail) => {
                globalThis.fletSnapshotState = state;
                globalThis.fletSnapshotDetail = detail;
                maker.terminate();
            };
            maker.onmessage = (event) => {
                const made = event.data;
                if (!made || !made.fletSnapshot) return;
                if (made.fletSnapshot !== "made") return done(made.fletSnapshot, made);
                const detail = { bytes: made.bytes, stored: made.stored, ms: made.ms };
                keepSnapshot(made).then(() => done("saved", detail), (err) => {
                    maker.terminate();
                    notKept(err, detail);
                });
            };
            maker.onerror = (event) => done("failed", { error: String(event.message || event) });
            maker.postMessage({
                fletMakeSnapshot: true,
                pyodideUrl: flet.pyodideUrl || "pyodide/pyodide.mjs",
                appPackageUrl: flet.appPackageUrl,
            });
        };
        async function canStore() {
            if (typeof caches === "undefined") throw new Error("no Cache Storage in this page");
            const probe = "farkle-table-storage-probe";
            try {
                await (await caches.open(probe)).put(new URL("probe", document.baseURI).href, new Response("1"));
            } finally {
                await caches.delete(probe).catch(() => {});
            }
        }
        // Stored by the page and read back whole before the maker ends: WebKit loses an entry
        // a worker put just before it was terminated (and refuses storage in some modes).
        async function keepSnapshot(made) {
            if (typeof caches === "undefined") throw new Error("no Cache Storage in this page");
            await caches.delete(made.cache); // one snapshot per site: drop other builds'
            const cache = await caches.open(made.cache);
            await cache.put(made.url, new Response(made.packed, {
                headers: { "Content-Type": "application/octet-stream" },
            }));
            const back = await cache.match(made.url);
            const size = back ? (await back.arrayBuffer()).byteLength : -1;
            if (size !== made.stored) throw new Error(`read back ${size} of ${made.stored} bytes`);
        }
        const later = () => setTimeout(make, MAKE_SNAPSHOT_AFTER_FIRST_PAGE_MS);
        if (firstPageSent) later();
        else onFirstPage = later;
        setTimeout(make, START_FLUTTER_AFTER_MS + 50000); // no page after a minute: try anyway
    }
    return {
        take(args) {
            const early = worker;
            worker = null;
            if (early && JSON.stringify(args ?? {}) === "{}") {
                early.fletEarlyQueue = queue;
                adopted = true;
                return early;
            }
            if (early) early.terminate();
            return null;
        }
    };
})();

