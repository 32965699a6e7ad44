import JSONWriting
import Testing

@Suite struct JSONValueTests {
    @Test func jsonTextIsEscaped() {
        let value = JSONValue.object([
            JSONField("text", "quote \" backslash \\ newline \n tab \t bell \u{7} é"),
            JSONField("none", .null), JSONField("list", .array([1, true])),
        ])
        #expect(
            value.serialized
                == #"{"text":"quote \" backslash \\ newline \n tab \t bell \u0007 é","none":null,"list":[1,true]}"#)
    }
}
