import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"

/** The SDK's real client over Streamable HTTP, authenticated with one Authorization header. */
export const connectMcp = async (baseUrl: string, authorization: string): Promise<Client> => {
  const client = new Client({ name: "test-agent", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization } }
  })
  await client.connect(transport)
  return client
}

/** Calls a tool and returns its structured content, failing loudly on a tool error. */
export const callTool = async (client: Client, name: string, args: Record<string, unknown>): Promise<any> => {
  const result = await client.callTool({ name, arguments: args })
  if (result.isError) throw new Error(`tool ${name} failed: ${JSON.stringify(result.content)}`)
  return result.structuredContent
}
