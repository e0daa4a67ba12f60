/** Test helper: reads a `text/event-stream` response one event (the text up to a blank line) at a time. */
export function sseEvents(response: Response): () => Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return async (): Promise<string> => {
    // Bounded: a stream that never completes an event fails the test instead of hanging it.
    for (let i = 0; i < 100 && !buffer.includes("\n\n"); i++) buffer += (await reader.read()).value ?? "";
    const [event, ...rest] = buffer.split("\n\n");
    buffer = rest.join("\n\n");
    return event!;
  };
}
