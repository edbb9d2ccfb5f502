/** To the token thread: texts to count, answered by id. */
export interface TokenCountRequest {
  id: number;
  texts: string[];
}

/** From the token thread: one count per text, in order. */
export interface TokenCountReply {
  id: number;
  counts: number[];
}
