// Reads a TAP log on stdin with npm's tap-parser (tests/boot/tap-consumers.t)
// and prints one JSON line: the outcome, and "invalid": every line the
// parser did not accept as TAP (its "extra" events) or flagged as a TAP error.
const { Parser } = require('tap-parser');
const p = new Parser();
const extra = [];
p.on('extra', (d) => extra.push(String(d).replace(/\n$/, '')));
p.on('complete', (r) => {
  const errs = r.failures.filter((f) => f.tapError).map((f) => f.tapError);
  const bad = extra.concat(errs);
  console.log(JSON.stringify({ ok: r.ok, count: r.count, pass: r.pass, fail: r.fail, skip: r.skip,
    invalid: bad.length, bailout: r.bailout, first_invalid: bad[0] || null }));
});
process.stdin.pipe(p);
