/** The proto-JSON shapes the hooks read from the daemon; every field may be absent when it is the default. */

export interface MemoryJson {
  id?: string;
}

export interface SaveResponseJson {
  memory?: MemoryJson;
  mergedInto?: string;
}

/** The part of Brief's and Suggest's answers the hooks print: the context text, ready to inject. */
export interface TextResponseJson {
  text?: string;
}
