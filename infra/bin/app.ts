import { App } from "aws-cdk-lib";
import { createDorsal } from "../lib/dorsal-app";

const app = new App();
createDorsal(app, { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION });
app.synth();
