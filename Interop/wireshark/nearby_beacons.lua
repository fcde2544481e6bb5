-- nearby_beacons.lua: Eddystone, iBeacon, AltBeacon and BLE token v1 fields for Wireshark.
--
-- With this plugin Wireshark and TShark (4.0 and later) decode the beacon frames inside
-- Bluetooth LE advertising data wherever they dissect it (HCI H4, btsnoop, HCI monitor, LE
-- link layer, nRF Sniffer), with the rules of nearby-conformance's reference decoder, and
-- flag what that decoder flags: a malformed frame gets expert info (group Malformed) and the
-- fields `nearby.fault` (the decoder's `layer/code`) and `nearby.fault.offset` (bytes from
-- the start of the advertisement's AD data, as in the frame vectors).
--
-- Install: copy this file into the personal Lua plugins folder (Help > About Wireshark >
-- Folders; on Linux ~/.local/lib/wireshark/plugins/), or run
-- `tshark -X lua_script:nearby_beacons.lua`. Example filter:
-- `nearby.eddystone.frame_type == 0x20 && nearby.eddystone.tlm.temperature < 0`.
--
-- Formats: docs/spec/eddystone.md, docs/spec/ibeacon-altbeacon.md and docs/spec/ble-token.md
-- of nearby-conformance; the clause ids in the comments below are theirs. Wireshark 4.0 has
-- no dissector table for the service data of a 16-bit UUID, so this is a post-dissector: it
-- walks the advertising-data entries Wireshark found (`btcommon.eir_ad.entry`), each once.
-- Wireshark 4.0 does not reassemble chained extended advertising reports: the AD structure
-- cut at the end of an incomplete report (data status 1) is left to the next report and not
-- flagged, on purpose (the reference decoder joins the chain and reads it whole). HCI
-- commands (the host's own advertising data) are passed over, as the decoder passes them.

local nearby = Proto("nearby", "Nearby beacons")

local frame_types = { [0x00] = "UID", [0x10] = "URL", [0x20] = "TLM", [0x30] = "EID", [0x40] = "E2EE-EID" }
local url_schemes = { [0] = "http://www.", [1] = "https://www.", [2] = "http://", [3] = "https://" }
local url_expansions = {
  [0] = ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
  ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
}

local f = {
  type = ProtoField.string("nearby.type", "Beacon type (nearby-conformance decode)"),
  fault = ProtoField.string("nearby.fault", "Fault (layer/code)"),
  fault_reason = ProtoField.string("nearby.fault.reason", "Fault reason"),
  fault_offset = ProtoField.int16("nearby.fault.offset", "Fault offset in the AD data (-1: the report's Data_Length)"),
  frame_type = ProtoField.uint8("nearby.eddystone.frame_type", "Eddystone frame type", base.HEX, frame_types),
  tx_power = ProtoField.int8("nearby.eddystone.tx_power", "Tx power at 0 m (dBm)"),
  namespace = ProtoField.bytes("nearby.eddystone.namespace", "Namespace"),
  instance = ProtoField.bytes("nearby.eddystone.instance", "Instance"),
  uid_reserved = ProtoField.bytes("nearby.eddystone.reserved", "RFU"),
  url_scheme = ProtoField.uint8("nearby.eddystone.url_scheme", "URL scheme", base.HEX, url_schemes),
  encoded_url = ProtoField.bytes("nearby.eddystone.encoded_url", "Encoded URL"),
  url = ProtoField.string("nearby.eddystone.url", "URL"),
  tlm_version = ProtoField.uint8("nearby.eddystone.tlm.version", "TLM version"),
  battery = ProtoField.uint16("nearby.eddystone.tlm.battery_mv", "Battery voltage (mV; 0: not supported)"),
  temperature = ProtoField.double("nearby.eddystone.tlm.temperature", "Temperature (°C)"),
  temperature_raw = ProtoField.int16("nearby.eddystone.tlm.temperature_raw", "Temperature (signed 8.8 °C)"),
  adv_count = ProtoField.uint32("nearby.eddystone.tlm.adv_count", "Advertising PDU count"),
  uptime = ProtoField.uint32("nearby.eddystone.tlm.uptime", "Time since power-up (0.1 s)"),
  etlm = ProtoField.bytes("nearby.eddystone.etlm.data", "Encrypted TLM"),
  salt = ProtoField.bytes("nearby.eddystone.etlm.salt", "Salt"),
  mic = ProtoField.bytes("nearby.eddystone.etlm.mic", "Message integrity check"),
  nordic = ProtoField.uint8("nearby.eddystone.etlm.nordic_rfu", "Nordic RFU byte", base.HEX),
  eid = ProtoField.bytes("nearby.eddystone.eid", "Ephemeral identifier"),
  e2ee_eid = ProtoField.bytes("nearby.eddystone.e2ee.eid", "End-to-end encrypted EID"),
  hashed_flags = ProtoField.uint8("nearby.eddystone.e2ee.hashed_flags", "Hashed flags", base.HEX),
  data = ProtoField.bytes("nearby.eddystone.data", "Service data (frame type first)"),
  ib_uuid = ProtoField.guid("nearby.ibeacon.uuid", "Proximity UUID"),
  ib_major = ProtoField.uint16("nearby.ibeacon.major", "Major"),
  ib_minor = ProtoField.uint16("nearby.ibeacon.minor", "Minor"),
  ib_power = ProtoField.int8("nearby.ibeacon.power", "Measured power at 1 m (dBm)"),
  ab_company = ProtoField.uint16("nearby.altbeacon.manufacturer", "Manufacturer", base.HEX),
  ab_id = ProtoField.bytes("nearby.altbeacon.id", "Beacon ID"),
  ab_rssi = ProtoField.int8("nearby.altbeacon.reference_rssi", "Reference RSSI at 1 m (dBm)"),
  ab_reserved = ProtoField.uint8("nearby.altbeacon.reserved", "Manufacturer reserved", base.HEX),
  tk_version = ProtoField.uint8("nearby.token.version", "Token version (major)"),
  tk_flags = ProtoField.uint8("nearby.token.flags", "Token flags", base.HEX),
  tk_length = ProtoField.uint8("nearby.token.length", "Token length"),
  tk_token = ProtoField.bytes("nearby.token.token", "Token"),
  tk_tx_power = ProtoField.int8("nearby.token.tx_power", "Tx power at 0 m (dBm)"),
  tk_data = ProtoField.bytes("nearby.token.data", "Data after the version byte"),
}
local list = {}
for _, field in pairs(f) do list[#list + 1] = field end
nearby.fields = list

local malformed = ProtoExpert.new(
  "nearby.malformed", "Malformed beacon frame", expert.group.MALFORMED, expert.severity.ERROR)
local reserved = ProtoExpert.new(
  "nearby.reserved", "Reserved value", expert.group.PROTOCOL, expert.severity.WARN)
nearby.experts = { malformed, reserved }

local entry_field = Field.new("btcommon.eir_ad.entry")
local command_field = Field.new("bthci_cmd.opcode")
local data_status_field = Field.new("bthci_evt.le_ext_advts_event_type.data_status")
local data_length_field = Field.new("bthci_evt.data_length")
local crc_field = Field.new("btle.crc")
local crc_incorrect_field = Field.new("btle.crc.incorrect")
local crc_checked_field = Field.new("btle_rf.flags.crc_checked")
local crc_valid_field = Field.new("btle_rf.flags.crc_valid")
local nordic_crc_ok_field = Field.new("nordic_ble.crcok")
local adv_length_field = Field.new("btle.advertising_header.length")

local function bytes(n) return n .. (n == 1 and " byte" or " bytes") end

-- Why the reference decoder rejects this frame's LE link-layer packet, or nil, in its order
-- (docs/spec/hci.md LL-7, LL-3, LL-5): a CRC error the capture device reports (LE
-- pseudo-header flags, nRF Sniffer), a PDU length past the end of the frame (Wireshark
-- dissects what there is and its AD entries then look cut), else a CRC that Wireshark
-- computed differently.
local function link_layer_fault(frame)
  local checked, valid, nordic = crc_checked_field(), crc_valid_field(), nordic_crc_ok_field()
  if (checked and checked.value and valid and not valid.value) or (nordic and not nordic.value) then
    return "ll/crc-failed", "the capture device reports a CRC error"
  end
  local length = adv_length_field()
  if length then
    local left = frame:len() - length.range:tvb():offset() - 1
    if length.value > left then
      return "ll/length-overrun", "PDU payload: length " .. length.value .. " overruns its container ("
        .. bytes(left) .. " left)"
    end
  end
  if crc_incorrect_field() then
    local crc = crc_field()
    return "ll/crc-mismatch", "CRC " .. (crc and string.format("0x%06x ", crc.range:le_uint()) or "")
      .. "differs from the one Wireshark computed"
  end
end


-- A reader over bytes [pos, stop) of a Tvb, as the reference decoder's ByteCursor: a read
-- past the end raises a fault {layer, code, at, reason}, `at` counted from `base` (the
-- start of the AD data).
local Cursor = {}
Cursor.__index = Cursor

local function cursor(tvb, pos, stop, base, layer)
  return setmetatable({ tvb = tvb, pos = pos, stop = stop, base = base, layer = layer }, Cursor)
end

function Cursor:left() return self.stop - self.pos end

function Cursor:fail(code, at, reason)
  error({ layer = self.layer, code = code, at = (at or self.pos), reason = reason }, 0)
end

function Cursor:read(n, field)
  if n > self:left() then
    self:fail("truncated", nil, field .. ": needs " .. bytes(n) .. ", " .. self:left() .. " left")
  end
  local r = self.tvb(self.pos, n)
  self.pos = self.pos + n
  return r
end

-- The byte `ahead` bytes past the reader, or nil.
function Cursor:peek(ahead)
  if self:left() > ahead then return self.tvb(self.pos + ahead, 1):uint() end
end

-- What is left, or nil when nothing is.
function Cursor:rest()
  if self:left() == 0 then return nil end
  return self:read(self:left(), "rest")
end

function Cursor:expect_end(structure)
  if self:left() > 0 then
    self:fail("trailing-bytes", nil, structure .. ": " .. self:left() .. " unexpected "
      .. (self:left() == 1 and "byte" or "bytes") .. " after the end")
  end
end

function Cursor:expect_declared(n, at, field)
  if n > self:left() then
    self:fail("length-overrun", at, field .. ": length " .. n .. " overruns its container ("
      .. bytes(self:left()) .. " left)")
  end
end

-- A decoded beacon: its type name (as `decode` prints it), a label and its fields.
local function beacon(type_name, label)
  return { type = type_name, label = label, items = {} }
end

local function put(b, field, range, value)
  if range then b.items[#b.items + 1] = { field, range, value } end
end

-- Eddystone service data after UUID 0xFEAA, frame type first (EDDYSTONE-FRAME-2,
-- EDDYSTONE-FRAME-8; EDDYSTONE-FRAME-9 when it is empty).
local function eddystone(c)
  c.layer = "eddystone"
  local ftype = c:peek(0)
  if ftype == nil then c:read(1, "frame type") end
  local b
  if ftype == 0x00 then
    -- EDDYSTONE-UID-1 to EDDYSTONE-UID-9.
    b = beacon("eddystone-uid", "Eddystone-UID")
    put(b, f.frame_type, c:read(1, "UID frame type"))
    put(b, f.tx_power, c:read(1, "UID Tx_Power"))
    put(b, f.namespace, c:read(10, "UID namespace"))
    put(b, f.instance, c:read(6, "UID instance"))
    put(b, f.uid_reserved, c:left() > 0 and c:read(math.min(c:left(), 2), "UID RFU") or nil)
    c:expect_end("UID frame")
  elseif ftype == 0x10 then
    -- EDDYSTONE-URL-1 to EDDYSTONE-URL-10; reserved schemes and bytes (EDDYSTONE-URL-6,
    -- EDDYSTONE-URL-7) are a warning, not a fault.
    b = beacon("eddystone-url", "Eddystone-URL")
    put(b, f.frame_type, c:read(1, "URL frame type"))
    put(b, f.tx_power, c:read(1, "URL Tx_Power"))
    local scheme_at = c.pos
    local scheme = c:read(1, "URL scheme")
    put(b, f.url_scheme, scheme)
    local text = url_schemes[scheme:uint()]
    if not text then b.warning = "reserved URL scheme " .. scheme:uint() end
    local encoded = c:rest()
    put(b, f.encoded_url, encoded)
    for i = 0, (encoded and encoded:len() or 0) - 1 do
      local byte = encoded(i, 1):uint()
      if url_expansions[byte] then
        if text then text = text .. url_expansions[byte] end
      elseif byte >= 0x21 and byte <= 0x7E then
        if text then text = text .. string.char(byte) end
      else
        b.warning = string.format("reserved URL byte 0x%02x at offset %d of the encoded URL", byte, i)
        text = nil
      end
    end
    if text then put(b, f.url, c.tvb(scheme_at, c.pos - scheme_at), text) end
  elseif ftype == 0x20 then
    -- EDDYSTONE-TLM-1, EDDYSTONE-TLM-3.
    local version = c:peek(1)
    if version == nil then
      c.pos = c.pos + 1
      c:read(1, "TLM version")
    end
    if version == 0 then
      -- EDDYSTONE-TLM-4 to EDDYSTONE-TLM-10.
      b = beacon("eddystone-tlm", "Eddystone-TLM")
      put(b, f.frame_type, c:read(1, "TLM frame type and version"))
      put(b, f.tlm_version, c:read(1, "TLM frame type and version"))
      put(b, f.battery, c:read(2, "TLM VBATT"))
      local temperature = c:read(2, "TLM TEMP")
      put(b, f.temperature_raw, temperature)
      if temperature:int() ~= -32768 then put(b, f.temperature, temperature, temperature:int() / 256) end
      put(b, f.adv_count, c:read(4, "TLM ADV_CNT"))
      put(b, f.uptime, c:read(4, "TLM SEC_CNT"))
      c:expect_end("TLM frame")
    elseif version == 1 then
      -- EDDYSTONE-ETLM-1 to EDDYSTONE-ETLM-4.
      b = beacon("eddystone-etlm", "Eddystone-eTLM")
      put(b, f.frame_type, c:read(1, "eTLM frame type and version"))
      put(b, f.tlm_version, c:read(1, "eTLM frame type and version"))
      put(b, f.etlm, c:read(12, "eTLM ETLM"))
      put(b, f.salt, c:read(2, "eTLM SALT"))
      put(b, f.mic, c:read(2, "eTLM MIC"))
      put(b, f.nordic, c:left() > 0 and c:read(1, "eTLM Nordic RFU") or nil)
      c:expect_end("eTLM frame")
    else
      -- EDDYSTONE-TLM-2.
      b = beacon("eddystone-tlm", "Eddystone-TLM of an unknown version")
      put(b, f.frame_type, c.tvb(c.pos, 1))
      put(b, f.tlm_version, c.tvb(c.pos + 1, 1))
      put(b, f.data, c:rest())
    end
  elseif ftype == 0x30 then
    -- EDDYSTONE-EID-1, EDDYSTONE-EID-2, EDDYSTONE-EID-3.
    b = beacon("eddystone-eid", "Eddystone-EID")
    put(b, f.frame_type, c:read(1, "EID frame type"))
    put(b, f.tx_power, c:read(1, "EID Tx_Power"))
    put(b, f.eid, c:read(8, "EID"))
    c:expect_end("EID frame")
  elseif ftype == 0x40 then
    -- EDDYSTONE-E2EE-1, EDDYSTONE-E2EE-2, EDDYSTONE-E2EE-3.
    b = beacon("eddystone-e2ee-eid", "Eddystone E2EE-EID (frame 0x40)")
    put(b, f.frame_type, c:read(1, "E2EE-EID frame type"))
    local body = c:left()
    if body == 20 or body == 32 then
      put(b, f.e2ee_eid, c:read(body, "E2EE-EID"))
    elseif body == 21 or body == 33 then
      put(b, f.e2ee_eid, c:read(body - 1, "E2EE-EID"))
      put(b, f.hashed_flags, c:read(1, "E2EE-EID hashed flags"))
    else
      c:fail("length-mismatch", nil,
        "E2EE-EID frame: " .. body .. " bytes after the frame type, expected 20, 21, 32 or 33")
    end
  else
    -- EDDYSTONE-FRAME-10.
    b = beacon("eddystone-unknown", string.format("Eddystone frame 0x%02x (unknown)", ftype))
    put(b, f.frame_type, c.tvb(c.pos, 1))
    put(b, f.data, c:rest())
  end
  return b
end

-- Service data after UUID 0xFEF3 (docs/spec/ble-token.md): a token advertisement when it
-- starts with 0xF7, else nothing (Nearby Connections uses the same UUID).
local function token(c)
  if c:peek(0) ~= 0xF7 then return nil end
  c.layer = "token"
  c:read(1, "token header")
  local version = c:read(1, "token version")
  local major = bit.rshift(version:uint(), 4)
  if major ~= 1 then
    local b = beacon("token-unknown", "BLE token advertisement of an unknown version")
    put(b, f.tk_version, version, major)
    put(b, f.tk_data, c:rest())
    return b
  end
  local b = beacon("token-v1", "BLE token advertisement v1")
  put(b, f.tk_version, version, major)
  put(b, f.tk_flags, version, bit.band(version:uint(), 0x0F))
  local at = c.pos
  local length = c:read(1, "token length")
  local n = length:uint()
  if n ~= 6 and (n < 8 or n > 16) then c:fail("invalid-value", at, "token length " .. n .. " is not 6 or 8…16") end
  put(b, f.tk_length, length)
  c:expect_declared(n, at, "token")
  put(b, f.tk_token, c:read(n, "token"))
  put(b, f.tk_tx_power, c:read(1, "token Tx_Power"))
  c:expect_end("token advertisement")
  return b
end

-- Manufacturer specific data after its company identifier: iBeacon (Apple's TLV 0x02
-- 0x15; IBEACON-2 to IBEACON-10), else AltBeacon (code 0xBEAC, any company; ALTBEACON-2 to
-- ALTBEACON-12), else nothing (IBEACON-4, ALTBEACON-4).
local function manufacturer(c, company, company_range)
  if company == 0x004C and c:peek(0) == 0x02 and c:peek(1) == 0x15 then
    c.layer = "ibeacon"
    local b = beacon("ibeacon", "iBeacon")
    c:read(1, "Apple TLV type")
    local at = c.pos
    local n = c:read(1, "Apple TLV length"):uint()
    c:expect_declared(n, at, "iBeacon TLV")
    local v = cursor(c.tvb, c.pos, c.pos + n, c.base, "ibeacon")
    c.pos = c.pos + n
    if c:left() > 0 then
      c:fail("trailing-bytes", nil,
        c:left() .. " bytes follow the iBeacon TLV: an iBeacon must be the whole manufacturer data")
    end
    put(b, f.ib_uuid, v:read(16, "iBeacon UUID"))
    put(b, f.ib_major, v:read(2, "iBeacon major"))
    put(b, f.ib_minor, v:read(2, "iBeacon minor"))
    put(b, f.ib_power, v:read(1, "iBeacon measured power"))
    return b
  elseif c:peek(0) == 0xBE and c:peek(1) == 0xAC then
    c.layer = "altbeacon"
    local b = beacon("altbeacon", "AltBeacon")
    put(b, f.ab_company, company_range, company)
    c:read(2, "AltBeacon code")
    put(b, f.ab_id, c:read(20, "AltBeacon ID"))
    put(b, f.ab_rssi, c:read(1, "AltBeacon reference RSSI"))
    put(b, f.ab_reserved, c:left() > 0 and c:read(1, "AltBeacon manufacturer reserved") or nil)
    c:expect_end("AltBeacon")
    return b
  end
end

-- One AD structure's payload [pos, stop) of type `ad_type`: a beacon, nil, or a fault.
local function structure(tvb, ad_type, pos, stop, base)
  local c = cursor(tvb, pos, stop, base, "ad")
  if ad_type == 0x16 then
    local uuid = c:read(2, "service UUID"):le_uint()
    if uuid == 0xFEAA then return eddystone(c) end
    if uuid == 0xFEF3 then return token(c) end
  elseif ad_type == 0xFF then
    local company_range = c:read(2, "company identifier")
    return manufacturer(c, company_range:le_uint(), company_range)
  elseif ad_type == 0x0A then
    c:read(1, "Tx Power Level")
    c:expect_end("Tx Power Level AD")
  end
end

local function show(tree, tvb, pos, stop, base, ok, result)
  if ok and result then
    local t = tree:add(nearby, tvb(pos, stop - pos), result.label)
    t:add(f.type, result.type):set_generated()
    for _, item in ipairs(result.items) do
      if item[3] ~= nil then t:add(item[1], item[2], item[3]) else t:add(item[1], item[2]) end
    end
    if result.warning then t:add_proto_expert_info(reserved, result.warning) end
  elseif not ok then
    if type(result) ~= "table" then error(result, 0) end
    local t = tree:add(nearby, tvb(pos, stop - pos), "Malformed beacon frame")
    local code = result.layer .. "/" .. result.code
    t:add(f.fault, code):set_generated()
    t:add(f.fault_reason, result.reason):set_generated()
    t:add(f.fault_offset, result.at - base):set_generated()
    local at = math.max(0, math.min(result.at, stop - 1))
    t:add_tvb_expert_info(malformed, tvb(at, stop > at and 1 or 0),
      code .. ": " .. result.reason .. " (offset " .. (result.at - base) .. " in the AD data)")
  end
end

function nearby.dissector(tvb, _, tree)
  -- An HCI command carries the host's own advertising data (LE Set (Extended) Advertising
  -- Data, Sent): what the phone sends is no sighting, and the reference decoder never counts
  -- it (docs/spec/hci.md, H4-3).
  if command_field() then return end
  local ll_code, ll_reason = link_layer_fault(tvb)
  if ll_code then
    local t = tree:add(nearby, tvb(0, 0), "Link-layer packet rejected")
    t:add(f.fault, ll_code):set_generated()
    t:add(f.fault_reason, ll_reason):set_generated()
    t:add_proto_expert_info(malformed, ll_code .. ": " .. ll_reason)
    return
  end
  -- In an extended report, a cut AD structure may be the first part of a chain (Wireshark
  -- 4.0 does not reassemble them) or what is left of one: Wireshark's own Malformed Packet
  -- says so, and the plugin does not guess.
  local extended = data_status_field() ~= nil
  -- The Data_Length of each HCI advertising report, by the frame offset of its AD data.
  local declared = {}
  for _, info in ipairs({ data_length_field() }) do declared[info.range:tvb():offset() + 1] = info.value end
  -- Entries that follow each other without a gap in the frame are one advertisement's AD
  -- data; a zero length byte ends it, as it ends the reference decoder's walk.
  local seen, last_end, base, ended = {}, nil, nil, false
  for _, info in ipairs({ entry_field() }) do
    local tvb = info.range:tvb()
    local at = tvb:offset()
    if not seen[at] and tvb:len() >= 1 then
      seen[at] = true
      if at ~= last_end then base, ended = at, false end
      local n = tvb(0, 1):uint()
      last_end = at + 1 + n
      if n == 0 then
        ended = true
      elseif not ended then
        -- Offsets below are in the entry's own Tvb; `base - at` is where the AD data starts.
        local stop = tvb:len()
        if stop < 1 + n then
          ended = true
          local length, present = declared[base], at + stop - base
          if length and length > present then
            -- The report itself is cut: the reference decoder rejects it before its AD data.
            show(tree, tvb, 0, stop, base - at, false, { layer = "adv-report", code = "length-overrun", at = -1,
              reason = "Data: length " .. length .. " overruns its container (" .. bytes(present) .. " left)" })
          elseif not extended then
            show(tree, tvb, 0, stop, base - at, false, { layer = "ad", code = "length-overrun", at = 0,
              reason = "AD structure: length " .. n .. " overruns its container (" .. bytes(stop - 1) .. " left)" })
          end
        else
          show(tree, tvb, 0, stop, base - at, pcall(structure, tvb, tvb(1, 1):uint(), 2, stop, base - at))
        end
      end
    end
  end
end

register_postdissector(nearby, true)
