// Farkle Table (build/templates/python-snapshot.js, added to python-worker.js by
// build/build_pwa.py).
//
// Python from a memory snapshot: Pyodide's own start (about 1.5-2 s here) and the app's
// imports (0.3-0.5 s) are done once per device and build, not at every start.
//
// - make(): run in a second, short-lived worker (python-early.js starts it a few seconds
//   after the app's first frame, only when this start did not use a snapshot). It loads
//   Pyodide with `_makeSnapshot`, unpacks app.tar.gz exactly as the Flet worker does,
//   imports what the app imports at start (never the app's main module itself, never
//   flet_js), takes `pyodide.makeMemorySnapshot()` and hands it, gzipped, to the page,
//   which keeps it in Cache Storage under a key made from this build's Python files and
//   reads it back before it ends this worker. Nothing is downloaded for it: the site's
//   size is unchanged.
// - load(): the Flet worker's loadPyodide(). Uses the stored snapshot when there is one
//   for this key, and starts Pyodide the usual way when there is none, or when restoring
//   it fails for any reason (the snapshot is then deleted and made again).
// After a restore the random module is reseeded: every start from one snapshot would
// otherwise draw the same numbers. (The snapshot is made on the device that uses it, so
// its time zone is that device's; os.urandom, uuid and clocks are read live anyway.)
const fletSnapshot = (() => {
    const KEY = "__SNAPSHOT_KEY__";
    const PACKAGE = "__APP_PACKAGE__";
    const FLET_NAMES = "__FLET_NAMES__";
    const scope = new URL("./", self.location.href);
    const CACHE = "farkle-table-python-snapshot:" + scope.pathname;
    const URL_ = new URL("python-snapshot/" + KEY + ".bin", scope).href;
    const supported = typeof caches !== "undefined" && typeof DecompressionStream !== "undefined"
        && typeof CompressionStream !== "undefined";
    let reading = null;
    const info = { used: false, reason: "", ms: 0 };

    async function read(announce) {
        if (!supported) return null;
        const hit = await (await caches.open(CACHE)).match(URL_);
        if (!hit) return null;
        // Python will be up in a moment: python-early.js starts Flutter now, alongside.
        if (announce) self.postMessage({ fletEarly: "snapshot-found" });
        const raw = hit.body.pipeThrough(new DecompressionStream("gzip"));
        return new Uint8Array(await new Response(raw).arrayBuffer());
    }

    async function drop() {
        try { if (supported) await caches.delete(CACHE); } catch (err) { /* nothing to drop */ }
    }

    return {
        info,
        // Start reading early (the init message), so it overlaps importing pyodide.mjs.
        prefetch(announce = false) {
            if (!reading) reading = read(announce).catch((err) => {
                console.warn("Python snapshot: cannot read it:", err);
                return null;
            });
            return reading;
        },
        async load(loadPyodide, options) {
            const started = performance.now();
            const snapshot = await this.prefetch();
            if (snapshot) {
                try {
                    const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
                    pyodide.runPython('__import__("random").seed()');
                    info.used = true;
                    info.ms = Math.round(performance.now() - started);
                    return pyodide;
                } catch (err) {
                    console.warn("Python snapshot: cannot restore it, starting Python normally:", err);
                    info.reason = "restore failed: " + err;
                    await drop();
                }
            } else info.reason = supported ? "none stored" : "unsupported";
            const pyodide = await loadPyodide(options);
            info.ms = Math.round(performance.now() - started);
            return pyodide;
        },
        // The start from a snapshot failed later on (e.g. the app's first import):
        // the next start goes the usual way and makes a new one.
        failed() {
            if (info.used) return drop();
        },
        async make(data) {
            const started = performance.now();
            try {
                if (!supported) throw new Error("no Cache Storage or (De)CompressionStream");
                const { loadPyodide } = await import(data.pyodideUrl);
                const pyodide = await loadPyodide({
                    _makeSnapshot: true, stdout: () => {}, stderr: (t) => console.warn(t),
                });
                const archive = await fetch(new URL(data.appPackageUrl, self.location.href));
                if (!archive.ok) throw new Error("HTTP " + archive.status + " for " + data.appPackageUrl);
                // Same place and same sys.path as the Flet worker's own start.
                pyodide.unpackArchive(new Uint8Array(await archive.arrayBuffer()), "gztar");
                pyodide.globals.set("fletsnap_package", PACKAGE);
                pyodide.globals.set("fletsnap_flet_names", pyodide.toPy(FLET_NAMES));
                pyodide.runPython(`
import gc, os, runpy, sys, traceback
from pyodide.http import pyfetch
sys.path.insert(0, "__pypackages__")
sys.path.insert(1, fletsnap_package)
try:
    import msgpack
    __import__(fletsnap_package + ".main")
    # what flet.messaging.pyodide_connection imports, but flet_js
    import flet.messaging.connection, flet.messaging.protocol, flet.messaging.session
    import flet.pubsub.pubsub_hub
    # flet loads its controls on first use (ft.Text, ...): load the ones the app names
    # (listed by the build: the archive holds the app's bytecode, not its source)
    ft = sys.modules["flet"]
    for name in fletsnap_flet_names:
        try:
            getattr(ft, name)
        except Exception:
            pass
    del ft
    globals().pop("name", None)
finally:
    # the app's main module itself runs as __main__ at every start
    sys.modules.pop(fletsnap_package + ".main", None)
    if hasattr(sys.modules.get(fletsnap_package), "main"):
        del sys.modules[fletsnap_package].main
    sys.path.remove(fletsnap_package)
    sys.path.remove("__pypackages__")
    del fletsnap_package, fletsnap_flet_names
gc.collect()
`);
                const snapshot = pyodide.makeMemorySnapshot();
                const packed = await new Response(
                    new Blob([snapshot]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
                // The page stores it (python-early.js), not this worker: WebKit drops a Cache
                // Storage entry put by a worker that is terminated right after put() resolves.
                self.postMessage({ fletSnapshot: "made", cache: CACHE, url: URL_, packed,
                                   bytes: snapshot.length, stored: packed.byteLength,
                                   ms: Math.round(performance.now() - started) }, [packed]);
            } catch (err) {
                console.warn("Python snapshot: not made:", err);
                self.postMessage({ fletSnapshot: "failed", error: String(err) });
            }
        },
    };
})();

