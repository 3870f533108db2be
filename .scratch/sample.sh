#!/bin/bash
# samples cumulative cpu time per process every 1s into /tmp/samples
: > /tmp/samples
while true; do ps -eo pid=,times=,args= | awk '{pid=$1; t=$2; $1="";$2=""; print pid, t, substr($0,1,120)}' >> /tmp/samples; echo "---" >> /tmp/samples; sleep 1; done
