// The one stylesheet every page inlines (allowed by hash in the CSP; system fonts only).
export const VIEWER_CSS = `
:root{--bg:#f7f7f5;--panel:#fff;--ink:#1d2125;--muted:#68707a;--line:#e2e4e8;--pass:#2b8a3e;--fail:#c92a2a;--error:#d9480f;--running:#2563eb;--pending:#868e96;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:#1c5fb8;text-decoration:none}a:hover{text-decoration:underline}
header.top{position:sticky;top:0;z-index:5;background:rgba(255,255,255,.95);border-bottom:1px solid var(--line);padding:8px 24px;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
header.top .crumbs{color:var(--muted)}header.top .crumbs a{margin-right:4px}header.top .spacer{flex:1}
.live{font-size:12px;color:var(--muted)}.live.on::before{content:"● ";color:var(--pass)}
main{padding:16px 24px;max-width:1600px;margin:0 auto}
h1{font-size:20px;margin:4px 0 2px}h2{font-size:16px;margin:18px 0 8px}.sub{color:var(--muted);margin-bottom:12px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(130px,1fr));gap:8px;margin:10px 0}
.card{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:8px 10px}.card .v{font-size:20px;font-weight:600}.card .l{color:var(--muted);font-size:12px}
.card.pass .v{color:var(--pass)}.card.fail .v{color:var(--fail)}.card.error .v{color:var(--error)}.card.running .v{color:var(--running)}
.splits{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:8px}.split{cursor:pointer}.split.sel{outline:2px solid var(--running)}
.bar{height:6px;background:var(--line);border-radius:3px;overflow:hidden;display:flex;margin-top:4px}.bar i{display:block;height:100%}.bar .p{background:var(--pass)}.bar .f{background:var(--fail)}.bar .e{background:var(--error)}.bar .r{background:var(--running)}
.filters{display:flex;gap:8px;flex-wrap:wrap;align-items:center;margin:10px 0}.filters input,.filters select{font:inherit;padding:4px 6px;border:1px solid var(--line);border-radius:6px;background:#fff}.filters input[type=search]{min-width:260px}
table.grid{border-collapse:collapse;width:100%;background:var(--panel);border:1px solid var(--line)}table.grid th,table.grid td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
table.grid th{position:sticky;top:44px;background:#f1f3f5;font-weight:600;white-space:nowrap}table.grid th.sortable{cursor:pointer;user-select:none}
table.grid th[aria-sort=ascending]::after{content:" ▲"}table.grid th[aria-sort=descending]::after{content:" ▼"}
table.grid td.num{text-align:right;font-variant-numeric:tabular-nums}table.grid td.info{max-width:520px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--muted)}
tr.st-pass td:first-child{border-left:4px solid var(--pass)}tr.st-fail td:first-child{border-left:4px solid var(--fail)}tr.st-error td:first-child{border-left:4px solid var(--error)}tr.st-running td:first-child{border-left:4px solid var(--running)}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff;background:var(--pending)}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.error{background:var(--error)}.badge.running{background:var(--running)}.badge.none{background:#ced4da;color:#333}
.layout{display:grid;grid-template-columns:minmax(0,3fr) minmax(300px,2fr);gap:16px}@media (max-width:1100px){.layout{grid-template-columns:1fr}}
.side{position:sticky;top:56px;align-self:start;max-height:calc(100vh - 70px);overflow:auto}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:10px 12px;margin-bottom:10px}
.item{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:8px 10px;margin:6px 0}.item.hit{outline:2px solid #f59f00}
.item .meta{color:var(--muted);font-size:12px;margin-bottom:4px;display:flex;gap:10px;flex-wrap:wrap}
.item.call{background:#f1f3f5;border-style:dashed}.item.role-user,.item.task{border-left:4px solid #4dabf7}.item.role-assistant{border-left:4px solid var(--pass)}.item.role-system{border-left:4px solid #adb5bd}
.app-agent{margin:8px 0 4px 12px;border-left:3px solid #7048e8;padding-left:8px}.app-agent>summary{cursor:pointer;color:#5f3dc4;font-weight:600}.app-agent .nested .item{margin-left:0}.item.tool{border-left:4px solid #495057}.item.ev-env{background:#fff9db;border-left:4px solid #f59f00}.item.ev-user{border-left:4px solid #4dabf7;background:#e7f5ff}.item.ev-reply{border-left:4px solid var(--pass);background:#ebfbee}.item.ev-action{padding:4px 10px;font-size:12px}.item.ev-noise{background:#f3f0ff;border-left:4px solid #7950f2}.item.noise-failure{background:#fff5f5;border-left:4px solid #e03131}
.item.verdict.ok{border:2px solid var(--pass)}.item.verdict.bad{border:2px solid var(--fail)}.item.context{background:#fff4e6;font-size:12px}
pre,.mono{font-family:var(--mono);font-size:12.5px;white-space:pre-wrap;word-break:break-word;margin:0}
pre.out{background:#212529;color:#e9ecef;padding:6px 8px;border-radius:6px;max-height:300px;overflow:auto}pre.err{color:#ffa8a8}
.pair{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:8px}@media (max-width:800px){.pair{grid-template-columns:1fr}}
details>summary{cursor:pointer;color:var(--muted)}details.thinking{background:#fff9db;border-radius:6px;padding:4px 8px;margin:4px 0}
table.cmp{border-collapse:collapse;width:100%;font-size:12.5px}table.cmp td,table.cmp th{border:1px solid var(--line);padding:3px 6px;vertical-align:top;text-align:left}table.cmp td.same{background:#ebfbee}table.cmp td.diff{background:#fff5f5}
mark{background:#ffe066}.muted{color:var(--muted)}.red{color:var(--fail)}.nav a{margin-left:8px}.more{display:block;margin:10px auto;padding:6px 16px;font:inherit;cursor:pointer}
button.small{font:inherit;font-size:12px;padding:2px 8px;cursor:pointer}
`;
