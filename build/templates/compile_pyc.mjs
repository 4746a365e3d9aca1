// Compile the app's Python files to CPython bytecode with the very Pyodide the site ships
// (same interpreter, same magic number), so the browser imports them without compiling.
// Run by build/build_pwa.py:  node compile_pyc.mjs <pyodide dir> <source dir>
// Writes __pycache__/*.cpython-3XX.pyc next to every .py file (hash-based, unchecked:
// valid whatever the files' modification times are after unpacking) and prints a JSON summary.
import { pathToFileURL } from "node:url";

const [pyodideDir, sourceDir] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(pyodideDir + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", stdout: () => {}, stderr: console.error });
pyodide.FS.mkdirTree("/src");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: sourceDir }, "/src");
const summary = pyodide.runPython(`
import compileall, json, py_compile, sys
ok = compileall.compile_dir("/src", quiet=1, workers=1,
                            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
json.dumps({"ok": bool(ok), "cache_tag": sys.implementation.cache_tag, "version": sys.version.split()[0]})
`);
console.log(summary);
process.exit(JSON.parse(summary).ok ? 0 : 1);
