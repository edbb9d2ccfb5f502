import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AdminService } from "../../../gen/memd/v1/admin_service_pb.js";
import { MemoryService } from "../../../gen/memd/v1/memory_service_pb.js";
import { SkillService } from "../../../gen/memd/v1/skill_service_pb.js";
import { VaultService } from "../../../gen/memd/v1/vault_service_pb.js";

/**
 * The daemon's own Connect API, on the origin the page was served from: the browser signs each
 * call with the viewer's session cookie. Nothing in the page decides what the daemon decides.
 */
const transport = createConnectTransport({ baseUrl: location.origin });
export const memory = createClient(MemoryService, transport);
export const admin = createClient(AdminService, transport);
export const vault = createClient(VaultService, transport);
export const skills = createClient(SkillService, transport);
