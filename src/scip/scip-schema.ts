/**
 * The part of SCIP's protobuf schema lspq reads (the fields and numbers of
 * the published scip.proto; what is not read is left out, and protobuf
 * skips unknown fields). An occurrence's range comes as the packed
 * `range` of older indexers or, from newer ones (scip-go 0.2), as a typed
 * single- or multi-line range, which takes precedence. Decoded by protobufjs from this text, so a field
 * lspq starts to read is one line here. `Index` is read one field value at
 * a time (scip-index.ts), each Metadata, Document and SymbolInformation by
 * its type here.
 */
export const SCIP_PROTO = `
syntax = "proto3";
package scip;

message Index {
  Metadata metadata = 1;
  repeated Document documents = 2;
  repeated SymbolInformation external_symbols = 3;
}

message Metadata {
  ToolInfo tool_info = 2;
  string project_root = 3;
}

message ToolInfo {
  string name = 1;
  string version = 2;
}

message Document {
  string relative_path = 1;
  repeated Occurrence occurrences = 2;
  repeated SymbolInformation symbols = 3;
  string language = 4;
  string text = 5;
  int32 position_encoding = 6;
}

message SymbolInformation {
  string symbol = 1;
  repeated string documentation = 3;
  repeated Relationship relationships = 4;
  int32 kind = 5;
  string display_name = 6;
  Document signature_documentation = 7;
  string enclosing_symbol = 8;
}

message Relationship {
  string symbol = 1;
  bool is_reference = 2;
  bool is_implementation = 3;
  bool is_type_definition = 4;
  bool is_definition = 5;
}

message Occurrence {
  repeated int32 range = 1;
  string symbol = 2;
  int32 symbol_roles = 3;
  repeated string override_documentation = 4;
  repeated int32 enclosing_range = 7;
  oneof typed_range {
    SingleLineRange single_line_range = 8;
    MultiLineRange multi_line_range = 9;
  }
}

message SingleLineRange {
  int32 line = 1;
  int32 start_character = 2;
  int32 end_character = 3;
}

message MultiLineRange {
  int32 start_line = 1;
  int32 start_character = 2;
  int32 end_line = 3;
  int32 end_character = 4;
}
`;

/** Occurrence.symbol_roles bits. */
export const ROLE_DEFINITION = 0x1;

/** Document.position_encoding: what a range's characters count (unspecified: the indexers here count UTF-16). */
export const ENCODING_UTF8 = 1;
export const ENCODING_UTF32 = 3;
