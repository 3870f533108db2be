#!/bin/bash
# usage: ab.sh label chromiumpath files...
label=$1; shift; cp=$1; shift
/work/main/.scratch/sample.sh & SP=$!
start=$(date +%s.%N)
CHROMIUM_PATH=$cp npx vitest run "$@" > /tmp/ab-$label.log 2>&1; rc=$?
end=$(date +%s.%N)
kill $SP
python3 - "$label" "$rc" "$start" "$end" <<'PY'
import sys,collections
mx={}
for line in open('/tmp/samples'):
    if line.startswith('---'): continue
    parts=line.split(' ',2)
    if len(parts)<3: continue
    pid,t,args=parts
    try: t=int(t)
    except: continue
    mx[pid]=(max(mx.get(pid,(0,''))[0],t),args.strip())
cat=collections.Counter()
for pid,(t,a) in mx.items():
    if 'chromium' in a or 'chrome' in a or 'headless' in a: k='chromium'
    elif 'functions/local/main.ts' in a: k='runtime'
    elif 'vitest' in a: k='vitest'
    else: continue
    cat[k]+=t
print(sys.argv[1], 'rc', sys.argv[2], 'wall %.1f' % (float(sys.argv[4])-float(sys.argv[3])), dict(cat))
PY
