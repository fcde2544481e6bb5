import Testing

@testable import NearbyLive

/// H4 framing (H4-10; Core Vol 4 Part A §2): each packet's length comes from its header, as the
/// table of `H4StreamFramer` gives it; the packets below are written from that table.
@Suite struct H4StreamFramerTests {
    /// A command (Reset), an event (Command Complete), ACL, SCO and ISO data, the ISO length
    /// field carrying flag bits above its 14 bits of length.
    static let packets: [[UInt8]] = [
        [0x01, 0x03, 0x0C, 0x00],
        [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00],
        [0x02, 0x40, 0x20, 0x03, 0x00, 0xAA, 0xBB, 0xCC],
        [0x03, 0x01, 0x00, 0x02, 0x11, 0x22],
        [0x05, 0x01, 0x00, 0x02, 0xC0, 0x33, 0x44],
    ]

    func frame(_ chunks: [[UInt8]]) -> ([[UInt8]], H4StreamFramer.Step) {
        var framer = H4StreamFramer()
        var out: [[UInt8]] = []
        var last = H4StreamFramer.Step.needMore
        for chunk in chunks {
            chunk.withUnsafeBytes { framer.append($0) }
            while true {
                last = framer.next()
                guard case .packet(let p) = last else { break }
                out.append(p)
            }
        }
        return (out, last)
    }

    @Test func packetsCutAtAnyByteComeOutWhole() {
        let stream = Self.packets.flatMap { $0 }
        for cut in 0...stream.count {
            let (out, last) = frame([Array(stream[..<cut]), Array(stream[cut...])])
            #expect(out == Self.packets, "cut at \(cut)")
            #expect(last == .needMore)
        }
        let (dripped, _) = frame(stream.map { [$0] })
        #expect(dripped == Self.packets)
    }

    @Test func everyStrictPrefixOfAPacketWaitsForMore() {
        for packet in Self.packets {
            for n in 0..<packet.count {
                let (out, last) = frame([Array(packet[..<n])])
                #expect(out.isEmpty && last == .needMore, "\(packet) cut to \(n)")
            }
        }
    }

    @Test func aByteThatStartsNoPacketIsNamedWithItsStreamOffset() {
        let (out, last) = frame([Self.packets[1] + Self.packets[0] + [0x5A, 0x01]])
        #expect(out == [Self.packets[1], Self.packets[0]])
        #expect(last == .garbage(offset: 11, indicator: 0x5A))
    }
}
