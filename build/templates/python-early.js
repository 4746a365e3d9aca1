// Farkle Table (build/templates/python-early.js, added by build/build_pwa.py).
//
// Python first: the Python worker starts as soon as the page loads instead of once Flutter
// is up and calls jsConnect(), and Flutter is started when Pyodide itself is loaded (or the
// worker reports anything, or after START_FLUTTER_AFTER_MS). Booting both at once made them
// fight for the CPU, and Flet's animated "Working..." screen cost more CPU than it showed;
// the page's own splash stays up meanwhile. Flutter's boot then overlaps the app's imports.
//
// Dart connects with args {}; jsConnect() adopts this worker when it asks for exactly that
// and replays whatever the worker already posted. Any other request gets a new worker.
const fletEarlyWorker = (() => {
    const START_FLUTTER_AFTER_MS = 10000;
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
    worker.onmessage = (event) => {
        if (!(event.data && event.data.fletEarly)) queue.push(event);
        flutterGo();
    };
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
    return {
        take(args) {
            const adopted = worker;
            worker = null;
            if (adopted && JSON.stringify(args ?? {}) === "{}") {
                adopted.fletEarlyQueue = queue;
                return adopted;
            }
            if (adopted) adopted.terminate();
            return null;
        }
    };
})();

