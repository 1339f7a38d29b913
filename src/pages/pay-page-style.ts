/** The pay page's style sheet: one column that fits a phone, light and dark, WCAG AA contrast. */
export const PAY_PAGE_STYLE = `
:root{color-scheme:light dark;--ink:#1d2330;--muted:#4f586a;--bg:#f7f5f0;--card:#fff;--line:#767f91;--accent:#1f4fd1;--ok:#0f7b3f;--bad:#b3261e}
@media (prefers-color-scheme:dark){:root{--ink:#eef0f4;--muted:#b3bbcb;--bg:#14171d;--card:#1e232c;--line:#8a93a6;--accent:#8fb0ff;--ok:#6fd49a;--bad:#ff8a80}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--ink)}
main{max-width:32rem;margin:0 auto;padding:1.25rem}h1{font-size:1.4rem;margin:.2rem 0 1rem}h2{font-size:1.05rem;margin:0 0 .5rem}
.card{background:var(--card);border-radius:14px;padding:1rem 1.25rem;margin-bottom:1rem;box-shadow:0 1px 3px #0002}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}dt{color:var(--muted)}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.spell{letter-spacing:.08em;font-family:ui-monospace,Menlo,monospace}
.countdown{font-size:2rem;font-variant-numeric:tabular-nums;font-weight:700;margin:.25rem 0}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
input{font:inherit;width:100%;padding:.7rem .8rem;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--ink)}
input[aria-invalid=true]{border-color:var(--bad);border-width:2px}
input:focus-visible{outline:3px solid var(--accent);outline-offset:1px}
.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
button{font:inherit;font-weight:600;width:100%;padding:.9rem;border:0;border-radius:10px;background:var(--accent);color:#fff;cursor:pointer;margin-top:.9rem}
@media (prefers-color-scheme:dark){button{color:#0b1020}}
button.secondary{background:transparent;color:var(--ink);border:2px solid var(--line)}
button:disabled{opacity:.5;cursor:default}button:focus-visible{outline:3px solid var(--ink);outline-offset:2px}
.note{color:var(--muted);font-size:.9rem}.ok{color:var(--ok);font-weight:600}.bad{color:var(--bad);font-weight:600}
.or{text-align:center;color:var(--muted);margin:1rem 0 0}
`;
