import { generate } from "./dist/generator/generate.js";
const { plan } = await generate({ spec: "/work/shared/corpus/dev/specs/" + process.argv[2] });
for (const t of plan.tools.filter(t => t.name === process.argv[3])) console.log(JSON.stringify(t.http, null, 1).slice(0, 2500));
