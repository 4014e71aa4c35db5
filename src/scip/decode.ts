// Decoders for the SCIP messages sextant reads, built from proto/scip.proto at
// first use.
import { projectFile } from '../paths.js';
import protobuf from 'protobufjs';
import type { ScipDocument, ScipMetadata } from './schema.js';

interface Decoders {
  metadata: protobuf.Type;
  document: protobuf.Type;
}

let decoders: Decoders | undefined;

function load(): Decoders {
  if (!decoders) {
    const root = protobuf.loadSync(projectFile('proto', 'scip.proto'));
    decoders = {
      metadata: root.lookupType('scip.Metadata'),
      document: root.lookupType('scip.Document'),
    };
  }
  return decoders;
}

export function decodeMetadata(bytes: Uint8Array): ScipMetadata {
  return load().metadata.decode(bytes) as unknown as ScipMetadata;
}

export function decodeDocument(bytes: Uint8Array): ScipDocument {
  return load().document.decode(bytes) as unknown as ScipDocument;
}
