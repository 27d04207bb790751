//! The metadata record `plugin_metadata!` places in the `.cellhost_metadata` section: plugin.h's
//! format 1, one NUL-terminated JSON object, built at compile time.

use cellhost_plugin::sys::{CELLHOST_ABI_MAJOR, CELLHOST_ABI_MINOR};
use cellhost_plugin::Metadata;

const RECORD: Metadata = Metadata::new("com.example.t", "Quote \" and \\ back", "1.0", "V\tendor")
    .description("Two\nlines")
    .types(&["com.example.a", "com.example.b"]);
static BYTES: [u8; RECORD.length()] = RECORD.bytes();

// The macro compiles in a crate of its own and adds no public item.
cellhost_plugin::plugin_metadata!(Metadata::new("com.example.u", "U", "2", "V").types(&["com.example.c"]));

#[test]
fn the_record_is_escaped_json_ending_in_one_nul() {
    let expected = format!(
        "{{\"cellhost-metadata\":1,\"id\":\"com.example.t\",\"name\":\"Quote \\\" and \\\\ back\",\"version\":\"1.0\",\
         \"vendor\":\"V\\u0009endor\",\"description\":\"Two\\u000alines\",\"abi\":\"{CELLHOST_ABI_MAJOR}.{CELLHOST_ABI_MINOR}\",\
         \"types\":[\"com.example.a\",\"com.example.b\"]}}\0"
    );
    assert_eq!(std::str::from_utf8(&BYTES).unwrap(), expected);
}

#[test]
fn no_description_is_an_empty_string_and_no_types_an_empty_array() {
    const BARE: Metadata = Metadata::new("a", "b", "c", "d");
    let bytes: [u8; BARE.length()] = BARE.bytes();
    assert!(std::str::from_utf8(&bytes).unwrap().ends_with(&format!(",\"description\":\"\",\"abi\":\"{CELLHOST_ABI_MAJOR}.{CELLHOST_ABI_MINOR}\",\"types\":[]}}\0")));
}
