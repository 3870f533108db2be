import { StateMachine } from "aws-local-stepfunctions";

// aws-local-stepfunctions 3 calls Promise.withResolvers, which Node 20 lacks.
if (!("withResolvers" in Promise)) {
  Object.defineProperty(Promise, "withResolvers", {
    value<T>() {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

/**
 * A definition CDK deploys, run here by aws-local-stepfunctions. The definitions are code, checked
 * against the ASL schema once by their tests rather than at every start (the check costs ~0.4 s of CPU).
 */
export function localStateMachine(definition: object): StateMachine {
  return new StateMachine(definition as ConstructorParameters<typeof StateMachine>[0], {
    validationOptions: { noValidate: true },
  });
}

/** The Lambda ARN a local definition names a task by; the runner maps it back to the function. */
export const localFunctionArn = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:dorsal-${name}`;
