
// ---- Farkle Table: QR codes read inside this worker (build/qr_decoder.py) ---------------
// zxing-wasm __ZXING_VERSION__ (ZXing-C++ as WebAssembly, reader-only build), shipped under
// ./qr/zxing-wasm/ and pre-cached with the site. Python calls it through Pyodide's `js`
// module:  texts = (await js.fletReadQr(to_js(picture_bytes))).to_py()
// It takes the bytes of an image file (JPEG/PNG, as flet-camera's take_picture() and
// FilePicker give them) and resolves to the texts of the valid QR codes found ([] if none).
// The decoder is loaded on first use: Python's start does not pay for it.
self.fletQrBase = new URL("./qr/zxing-wasm/", self.location.href).href;
self.fletQrModule = null;
self.fletQrLoad = function () {
    if (!self.fletQrModule) {
        self.fletQrModule = (async () => {
            const base = self.fletQrBase;
            const wasmUrl = new URL("zxing_reader.wasm.gz", base).href;
            const [zxing, wasm] = await Promise.all([
                import(new URL("es/reader/index.js", base).href),
                fetch(wasmUrl).then(async (response) => {
                    if (!response.ok) throw new Error("QR decoder: HTTP " + response.status + " for " + wasmUrl);
                    const bytes = new Uint8Array(await response.arrayBuffer());
                    // Stored gzipped (half the size); a host that sends it with
                    // Content-Encoding: gzip hands over the wasm itself ("\0asm").
                    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.buffer;
                    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
                    return await new Response(stream).arrayBuffer();
                }),
            ]);
            await zxing.prepareZXingModule({
                overrides: { wasmBinary: wasm, locateFile: (path) => new URL(path, base).href },
                fireImmediately: true,
            });
            return zxing;
        })();
        self.fletQrModule.catch(() => { self.fletQrModule = null; });  // try again next time
    }
    return self.fletQrModule;
};
self.fletReadQr = async function (bytes) {
    const zxing = await self.fletQrLoad();
    const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    const found = await zxing.readBarcodes(data, { formats: ["QRCode"], tryHarder: true, maxNumberOfSymbols: 4 });
    return found.filter((symbol) => symbol.isValid && symbol.text).map((symbol) => symbol.text);
};
// ---- end of the QR decoder ---------------------------------------------------------------
