-- CreateTable
CREATE TABLE "DemoFault" (
    "tenant" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "armedBy" TEXT NOT NULL,
    "armedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DemoFault_pkey" PRIMARY KEY ("tenant")
);
