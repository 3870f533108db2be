import { readFileSync } from "node:fs";
import { adminToken } from "../tests/support/api";
import { seedEventWithBibPhotos } from "../tests/support/seed";
import { startDorsal } from "../tests/support/server";

const cpu = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
};
const t0 = Date.now();
const d = await startDorsal();
console.log("serving after", Date.now() - t0, "ms, cpu", cpu(d.pid));
const token = await adminToken(d);
const t1 = Date.now();
await seedEventWithBibPhotos(d, token, { name: "x", bibs: ["5173"] });
console.log("first photo", Date.now() - t1, "ms, cpu", cpu(d.pid));
const t2 = Date.now();
await seedEventWithBibPhotos(d, token, { name: "y", bibs: ["5174"] });
console.log("second photo", Date.now() - t2, "ms, cpu", cpu(d.pid));
const t3 = Date.now();
await d.stop();
console.log("stop", Date.now() - t3);
